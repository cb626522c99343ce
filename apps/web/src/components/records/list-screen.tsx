import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { pathFor, type RouteName } from '../../lib/route-table.ts';
import { ScreenFrame } from '../screen-frame.tsx';
import { type ListConfig, ListPage } from './list-page.tsx';
import { RecordModal } from './record-modal.tsx';
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
