import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { RowData } from '@tanstack/react-table';
import { type ComponentType, type ReactNode, useMemo } from 'react';
import type { LazyComponent } from '../../lib/lazy-component.ts';
import { pathFor, type RouteName } from '../../lib/route-table.ts';
import { useIsStaff } from '../../lib/session.ts';
import { ScreenFrame } from '../screen-frame.tsx';
import { type ListConfig, ListPage } from './list-page.tsx';
import { preloadRecordModal, RecordModal } from './record-modal.tsx';
import { useRouteSearch } from './use-route-search.ts';

/** Whether a navigation keeps the form of a dialog on screen (else the unsaved-changes guard asks). */
export type KeepsForm = (next: { pathname: string; search: Record<string, unknown> }) => boolean;

/** What a dialog's content gets: how to close it, and which navigations keep its form. */
export interface DialogContext {
  close: () => void;
  keepsForm: KeepsForm;
}

/** "New <record>": a button next to Export that opens the create form in a dialog over the list (`?new=1`). */
export interface NewRecordDialog {
  /** The button's label, e.g. 'New declaration'. */
  label: string;
  /** The button's test id, e.g. 'new-declaration'. */
  testId: string;
  /** The button's icon; a plus by default. */
  icon?: ReactNode;
  /** The dialog's title; the button's label by default. */
  title?: string;
  dialogTestId: string;
  size?: string;
  /** Loads the dialog and its form on hover or focus of the button, before the click. */
  preload?: () => void;
  form: (dialog: DialogContext) => ReactNode;
}

/** The wiring a create form in a dialog takes (a subset of RecordFormWiring). */
interface DialogFormWiring<R> {
  onSaved: (saved: R) => void;
  onCancel: () => void;
  keepsForm?: KeepsForm | undefined;
}

/** "New <record>" whose form, once saved, says so and opens the new record's own screen. */
export interface NewThenOpen<R, P extends DialogFormWiring<R>> {
  label: string;
  /** The button's test id (the label in kebab case by default); the dialog's is `<testId>-dialog`. */
  testId?: string;
  size?: string;
  /** The form, loaded with its dialog (lazyNamed): hover or focus of the button loads both. */
  form: LazyComponent<P> | ComponentType<P>;
  /** The form's other props (its lookups). */
  props: Omit<P, keyof DialogFormWiring<R>>;
  /** What the notice says of the saved record and where it then opens. */
  saved: (record: R) => { message: string; to: string };
}

/**
 * The "New <record>" of a list whose new record opens on its own screen (a declaration, an invoice):
 * the route names its form, its lookups and what to say; this makes the button, dialog and wiring.
 */
export function useNewThenOpen<R, P extends DialogFormWiring<R>>(spec: NewThenOpen<R, P>): NewRecordDialog {
  const navigate = useNavigate();
  const Form = spec.form as ComponentType<DialogFormWiring<R>>;
  const load = 'preload' in spec.form ? spec.form.preload : undefined;
  const testId = spec.testId ?? spec.label.toLowerCase().replaceAll(' ', '-');
  return {
    label: spec.label,
    testId,
    dialogTestId: `${testId}-dialog`,
    ...(spec.size ? { size: spec.size } : {}),
    preload: () => {
      void preloadRecordModal();
      void load?.();
    },
    form: ({ close, keepsForm }) => (
      <Form
        {...spec.props}
        onSaved={(record) => {
          const { message, to } = spec.saved(record);
          notifications.show({ color: 'green', message });
          void navigate({ to });
        }}
        onCancel={close}
        keepsForm={keepsForm}
      />
    ),
  };
}

/** A list route as a declaration: its list, the lookups its filters and form share, and "New <record>". */
export interface NewThenOpenListRoute<T extends RowData, L extends object, R> {
  route: RouteName;
  /** The list's config, given whether the user is staff and the lookups. */
  config: (options: L & { staff: boolean }) => ListConfig<T>;
  /** The lookups (party, dossier pickers) the list's filters and the create form both use. */
  lookups: L;
  notice?: ReactNode;
  /** Staff only: the form (lazyNamed), the button's label and the dialog's size. */
  create: Pick<NewThenOpen<R, L & DialogFormWiring<R>>, 'label' | 'testId' | 'size' | 'form'>;
  saved: NewThenOpen<R, L & DialogFormWiring<R>>['saved'];
  /** Staff only: buttons beside "New <record>", and the dialogs they open. */
  staffActions?: ReactNode;
  children?: ReactNode;
}

/**
 * The screen of a list route whose staff create a record in a dialog over the list (`?new=1`), are
 * told so and taken to the new record's screen; customers see the list only. The route names its
 * parts (give `config` and `lookups` from module scope: the list's config is made once per role).
 */
export function NewThenOpenListScreen<T extends RowData, L extends object, R>({
  route,
  config,
  lookups,
  notice,
  create,
  saved,
  staffActions,
  children,
}: NewThenOpenListRoute<T, L, R>) {
  const staff = useIsStaff();
  const list = useMemo(() => config({ ...lookups, staff }), [config, lookups, staff]);
  // The lookups are the form's props but its wiring (L holds none of onSaved, onCancel, keepsForm).
  const props = lookups as NewThenOpen<R, L & DialogFormWiring<R>>['props'];
  const newRecord = useNewThenOpen({ ...create, props, saved });
  return (
    <ListScreen
      route={route}
      config={list}
      notice={notice}
      create={staff && newRecord}
      {...(staff && staffActions ? { actions: staffActions } : {})}
    >
      {staff && children}
    </ListScreen>
  );
}

/** A row opens its record in a dialog over the list (`?open=<id>`, `&edit=1` for its edit form). */
export interface OpenRecordDialog<T> {
  rowId: (row: T) => string;
  title: string;
  /** The title while its edit form shows (`edit=1`). */
  editTitle?: string;
  dialogTestId: string;
  size?: string;
  /** False while another dialog of the screen takes the place (an upload). */
  when?: boolean;
  /** Which navigations keep its form: any that keep the record open, or only those that keep `edit=1`. */
  formIn?: 'open' | 'edit';
  content: (
    id: string,
    dialog: DialogContext & { editing: boolean; setEditing: (on: boolean) => void },
  ) => ReactNode;
}

/** The URL state a list screen's dialogs use. */
type DialogSearch = {
  new?: number | undefined;
  open?: string | undefined;
  edit?: number | undefined;
};

/**
 * The button and the dialog of "New <record>", addressed by `?new=1` on the screen's route: the list
 * keeps its filters behind it, the back button and Escape close it, and a link can open it directly.
 */
export function useNewRecordDialog(route: RouteName, spec: NewRecordDialog | false | null | undefined) {
  const [search, setSearch] = useRouteSearch<DialogSearch>();
  if (!spec) return { button: null, dialog: null };
  const close = () => setSearch({ new: undefined });
  const keepsForm: KeepsForm = (next) => next.pathname === pathFor(route) && next.search.new === 1;
  const button = (
    <Button
      leftSection={spec.icon ?? <IconPlus size={16} aria-hidden />}
      onClick={() => setSearch({ new: 1 })}
      {...(spec.preload ? { onPointerEnter: spec.preload, onFocus: spec.preload } : {})}
      data-testid={spec.testId}
    >
      {spec.label}
    </Button>
  );
  const dialog = (
    <RecordModal
      opened={search.new === 1}
      title={spec.title ?? spec.label}
      onClose={close}
      testId={spec.dialogTestId}
      {...(spec.size ? { size: spec.size } : {})}
    >
      {spec.form({ close, keepsForm })}
    </RecordModal>
  );
  return { button, dialog };
}

export interface ListScreenProps<T extends RowData> {
  route: RouteName;
  config: ListConfig<T>;
  /** Above the list (a notice that concerns every row). */
  notice?: ReactNode;
  /** "New <record>" for those who may create one; nothing for the others. */
  create?: NewRecordDialog | false | null | undefined;
  /** A row opens in a dialog over the list instead of its own screen. */
  open?: OpenRecordDialog<T>;
  /** A row does something else in place (pins a filter) instead of opening its screen. */
  onOpen?: (row: T) => void;
  /** Buttons beside "New <record>" (or instead of it). */
  actions?: ReactNode;
  /** The screen's other dialogs. */
  children?: ReactNode;
}

/**
 * A list route as a declaration: the screen frame, the list, "New <record>" and its dialog, and
 * optionally the dialog a row opens in. A route file names its config and its forms; this wires them.
 */
export function ListScreen<T extends RowData>({
  route,
  config,
  notice,
  create,
  open,
  onOpen,
  actions,
  children,
}: ListScreenProps<T>) {
  const [search, setSearch] = useRouteSearch<DialogSearch>();
  const created = useNewRecordDialog(route, create);
  const editing = search.edit === 1;
  const closeOpen = () => setSearch({ open: undefined, tab: undefined, edit: undefined });
  const keepsOpenForm: KeepsForm = (next) =>
    next.pathname === pathFor(route) &&
    (open?.formIn === 'edit' ? next.search.edit === 1 : next.search.open === search.open);
  const toolbar =
    created.button || actions ? (
      <>
        {actions}
        {created.button}
      </>
    ) : undefined;

  return (
    <ScreenFrame route={route}>
      {notice}
      <ListPage
        config={config}
        {...(toolbar ? { actions: toolbar } : {})}
        {...(open
          ? { onOpen: (row: T) => setSearch({ open: open.rowId(row), tab: undefined, edit: undefined }) }
          : onOpen
            ? { onOpen }
            : {})}
      />
      {created.dialog}
      {open && (
        <RecordModal
          opened={Boolean(search.open) && search.new !== 1 && open.when !== false}
          title={editing && open.editTitle ? open.editTitle : open.title}
          onClose={closeOpen}
          testId={open.dialogTestId}
          {...(open.size ? { size: open.size } : {})}
        >
          {search.open &&
            open.content(search.open, {
              close: closeOpen,
              keepsForm: keepsOpenForm,
              editing,
              setEditing: (on) => setSearch({ edit: on ? 1 : undefined }),
            })}
        </RecordModal>
      )}
      {children}
    </ScreenFrame>
  );
}
