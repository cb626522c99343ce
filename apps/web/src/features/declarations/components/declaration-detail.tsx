import {
  amendmentProblem,
  CATEGORIES_OF_TYPE,
  cancellationProblem,
  customsMonthOf,
  type Declaration,
  type DeclarationCategory,
} from '@fvg/contracts';
import { Alert, Anchor, Button, Code, Group, List, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconBan,
  IconCopy,
  IconFileText,
  IconHourglass,
  IconPencil,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import { ConfirmDialog } from '../../../components/records/confirm-dialog.tsx';
import type { RecordScreenProps } from '../../../components/records/detail-layout.tsx';
import {
  DetailLayout,
  type DetailTab,
  useRecordByNumber,
  useRecordScreen,
} from '../../../components/records/detail-layout.tsx';
import { SidePanel } from '../../../components/records/facts.tsx';
import { RecordHistory } from '../../../components/records/history-tab.tsx';
import {
  fieldPathsOf,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import { DossierLink, PartyName, RecordLink } from '../../../components/records/record-link.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { fieldMessage, labelFor, normalizeFieldPath, problemIssue } from '../../../lib/field-messages.ts';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { DocumentsTab } from '../../documents/index.ts';
import {
  declarationHistoryOptions,
  declarationMessagesOptions,
  declarationOptions,
  useAmendDeclaration,
  useCancelDeclaration,
  useCreateDeclaration,
  useDeleteDeclaration,
  useLodgeDeclaration,
  useUpdateDeclaration,
} from '../api/declarations-api.ts';
import { LodgeDialog, ReasonDialog } from './declaration-dialogs.tsx';
import {
  contentInputOf,
  type DeclarationFormValues,
  declarationResolver,
  formValuesOf,
  itemErrorsOf,
} from './declaration-form.ts';
import { DeclarationHeader } from './declaration-header.tsx';
import { DeclarationItems, type ItemFormValue } from './declaration-items.tsx';
import { declarationPath, eur, lastMessageText } from './declaration-list-config.tsx';
import { DeclarationMessages } from './declaration-messages.tsx';
import {
  DECLARATION_STATUS_COLORS,
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  DECLARATION_FIELD_LABELS as L,
  SANDBOX_LABEL,
  typeCategoryLabel,
} from './declaration-meta.ts';
import { SandboxBadge, SandboxNotice } from './sandbox-notice.tsx';

type Form = UseFormReturn<DeclarationFormValues>;
type Mode = 'view' | 'draft' | 'amend';

const PENDING_TEXT = {
  amendment: 'Amendment sent to the authority, waiting for the answer.',
  cancellation: 'Cancellation request sent to the authority, waiting for the answer.',
} as const;

/** The route of the SAD view of this type (the sad helper's screens). */
const sadRoute = (type: Declaration['type']) => `declaration-${type}-alt` as const;

/** The top-level fields whose value differs from the stored declaration: what an amendment changes. */
function changesOf(values: DeclarationFormValues, base: DeclarationFormValues) {
  const all = contentInputOf(values) as Record<string, unknown>;
  const before = contentInputOf(base) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(all).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])),
  );
}

/** Every message of a lodging refusal, worded with the form's labels: the list above the form. */
/** The toast lodging shows, by declaration, so that the answer can take it away. */
export const lodgedToastId = (id: string) => `declaration-lodged-${id}`;

/** A problem the API named, in words, with the form field it is about (null: the whole declaration). */
interface ProblemLine {
  text: string;
  field: string | null;
}

function problemLines(error: unknown): ProblemLine[] {
  if (!isApiError(error) || error.fieldErrors.length === 0)
    return [{ text: problemMessage(error), field: null }];
  return error.fieldErrors.map((e) => {
    const path = normalizeFieldPath(e.field).replace(/^changes\./, '');
    const item = /^items\.(\d+)\.(.+)$/.exec(path);
    const label = item ? `Item ${Number(item[1]) + 1}: ${labelFor(item[2] ?? '', L)}` : labelFor(path, L);
    return { text: fieldMessage(problemIssue(e), label), field: path };
  });
}

/**
 * Takes the clerk to a problem's field and focuses it (an item's field is in its details, which an error
 * on it has opened: the line items editor opens a line whose panel has an error).
 */
function goToField(form: Form, path: string) {
  const el = document.querySelector<HTMLElement>(`[data-testid="field-${path}"]`);
  if (!el) return form.setFocus(path as never);
  el.scrollIntoView?.({ block: 'center' });
  const input = el.matches('input, textarea, button')
    ? el
    : el.querySelector<HTMLElement>('input, textarea, button');
  (input ?? el).focus();
}

function ItemsField({
  form,
  declaration,
  readOnly,
}: {
  form: Form;
  declaration: Declaration;
  readOnly: boolean;
}) {
  const items = (useWatch({ control: form.control, name: 'items' }) ?? []) as ItemFormValue[];
  const currency = useWatch({ control: form.control, name: 'currency' });
  const exchangeRate = useWatch({ control: form.control, name: 'exchangeRate' });
  const category = useWatch({ control: form.control, name: 'category' });
  const [
    additionTransportInsurance,
    additionCommissions,
    additionPacking,
    deductionTransportAfterEntry,
    deductionDuties,
    apportionment,
  ] = useWatch({
    control: form.control,
    name: [
      'additionTransportInsurance',
      'additionCommissions',
      'additionPacking',
      'deductionTransportAfterEntry',
      'deductionDuties',
      'apportionment',
    ],
  });
  // Subscribes to the errors so server and resolver messages reach the item cells.
  const errors = form.formState.errors.items;
  return (
    <DeclarationItems
      type={declaration.type}
      category={
        (CATEGORIES_OF_TYPE[declaration.type] as readonly string[]).includes(category)
          ? (category as DeclarationCategory)
          : declaration.category
      }
      currency={currency || null}
      exchangeRate={exchangeRate || null}
      value={items}
      onChange={(next) => form.setValue('items', next, { shouldDirty: true })}
      readOnly={readOnly}
      errors={itemErrorsOf(errors)}
      valuation={{
        adjustments: {
          additionTransportInsurance,
          additionCommissions,
          additionPacking,
          deductionTransportAfterEntry,
          deductionDuties,
        },
        apportionment: apportionment === 'mass' ? 'mass' : 'value',
      }}
    />
  );
}

function Content({
  form,
  declaration,
  readOnly,
  staff,
  banner,
}: {
  form: Form;
  declaration: Declaration;
  readOnly: boolean;
  staff: boolean;
  banner?: ReactNode;
}) {
  return (
    <Stack gap="lg">
      {banner}
      <DeclarationHeader
        form={form}
        type={declaration.type}
        readOnly={readOnly}
        staff={staff}
        rateMonth={customsMonthOf(declaration.lodgedAt ? new Date(declaration.lodgedAt) : new Date())}
      />
      <Stack gap="xs">
        <Title order={4}>Items</Title>
        <ItemsField form={form} declaration={declaration} readOnly={readOnly} />
      </Stack>
    </Stack>
  );
}

function Side({ d }: { d: Declaration }) {
  const at = (label: string, value: string | null) => [label, value && formatDateTime(value)] as const;
  return (
    <SidePanel
      rows={[
        ['Status', DECLARATION_STATUS_LABELS[d.status]],
        ['Type', `${DECLARATION_TYPE_LABELS[d.type]} (${d.category})`],
        // The LRN heads the screen and the MRN is in the line under it: the narrow panel would break them.
        ['Customs value', eur(d.totals.customsValue)],
        ...(d.type === 'import'
          ? ([['Duty + VAT (est.)', d.totals.dutyAndVat && eur(d.totals.dutyAndVat)]] as const)
          : d.type === 'transit'
            ? ([['Duties at stake', d.totals.dutyAndVat && eur(d.totals.dutyAndVat)]] as const)
            : []),
        ['Last message', d.lastMessage && lastMessageText(d.lastMessage)],
        at('Lodged', d.lodgedAt),
        at('Accepted', d.acceptedAt),
        at('Released', d.releasedAt),
        at('Exited', d.exitedAt),
        at('Arrived', d.arrivedAt),
        at('Discharged', d.dischargedAt),
        ['Gateway', d.gateway.sandbox ? SANDBOX_LABEL : d.gateway.label],
        ['Created', `${formatDateTime(d.createdAt)}${d.createdBy ? ` by ${d.createdBy.name}` : ''}`],
        ['Updated', formatDateTime(d.updatedAt)],
      ]}
    />
  );
}

function Subtitle({ d, staff }: { d: Declaration; staff: boolean }) {
  return (
    <>
      {typeCategoryLabel(d.type, d.category)} · <PartyName party={d.customer} linked={staff} />
      {d.dossier && (
        <>
          {' · dossier '}
          <DossierLink dossier={d.dossier} size="inherit" testId="declaration-dossier" />
        </>
      )}
      {d.shipment && (
        <>
          {' · outbound declaration of shipment '}
          <RecordLink
            to={pathFor('shipment', { id: d.shipment.number })}
            size="inherit"
            testId="declaration-shipment"
          >
            {d.shipment.number}
          </RecordLink>
        </>
      )}
      {d.mrn && (
        <>
          {' · MRN '}
          <Code data-testid="declaration-mrn">{d.mrn}</Code>
        </>
      )}
    </>
  );
}

function Messages({ id, lrn }: { id: string; lrn: string }) {
  const messages = useQuery(declarationMessagesOptions(id));
  return (
    <DeclarationMessages
      declaration={{ id, lrn }}
      messages={messages.data}
      loading={messages.isPending}
      error={messages.error ?? undefined}
      onRetry={() => void messages.refetch()}
    />
  );
}

/** What may follow when customs refuse to release the goods, by type (issue 27 item 5). */
const NOT_RELEASED_NEXT: Record<Declaration['type'], string[]> = {
  import: [
    'Re-export the goods: an export declaration, or a re-export notification while they are in temporary storage (UCC art. 270 and 274).',
    'Abandon them to the State or have them destroyed under customs supervision (UCC art. 199 and 197).',
    'Or correct what the control found and lodge a new declaration.',
  ],
  export: [
    'Correct what the control found and lodge a new export declaration.',
    'Or keep the goods in the Union: nothing leaves under this declaration.',
  ],
  transit: [
    'Correct what the control found and lodge a new transit declaration.',
    'Or place the goods under another procedure at the office of departure.',
  ],
};

/** Customs refused release after the control: when, and what can be done now. */
function NotReleasedBanner({ d, staff }: { d: Declaration; staff: boolean }) {
  if (d.status !== 'not_released') return null;
  const when = d.lastMessage?.kind === 'not_released' ? ` on ${formatDate(d.lastMessage.at)}` : '';
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={`Not released after the control${when}`}
      data-testid="not-released"
    >
      <Stack gap={4}>
        <Text size="sm">
          Customs did not release the goods for the procedure declared; the message log has the authority’s
          answer. What can happen next:
        </Text>
        <List size="sm" spacing={2}>
          {NOT_RELEASED_NEXT[d.type].map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
        {staff && (
          <Text size="sm" c="dimmed">
            Copy makes a new draft from this declaration.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

/** The rules of the last refusal of lodging, as the authority worded them. */
function RejectionBanner({ d }: { d: Declaration }) {
  if (d.status !== 'rejected' || d.rejection.length === 0) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title="Rejected by the authority"
      data-testid="rejection"
    >
      <Stack gap={4}>
        {d.rejection.map((r) => (
          <Text key={`${r.code}-${r.field ?? ''}`} size="sm">
            <Code>{r.code}</Code> {r.text}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

function ProblemsBanner({
  title,
  lines,
  onGo,
}: {
  title: string;
  lines: ProblemLine[];
  onGo: (field: string) => void;
}) {
  if (lines.length === 0) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={title}
      data-testid="lodge-problems"
    >
      <Stack gap={2}>
        {lines.map((line) => (
          <Text key={`${line.field ?? ''}-${line.text}`} size="sm">
            •{' '}
            {line.field ? (
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => onGo(line.field as string)}
                data-testid={`lodge-problem-${line.field}`}
              >
                {line.text}
              </Anchor>
            ) : (
              line.text
            )}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/**
 * /declarations/$id. Staff fill a draft by sections and items (estimate live), save it and lodge it
 * after a confirmation; the authority's answers arrive live (hub RecordChanged) in the status, the
 * MRN and the message timeline. Once lodged the declaration is read-only: an amendment opens the
 * form as a draft of the changes, sent with a reason; a cancellation asks for one. Customers see
 * their lodged declarations read-only, without notes or actions.
 */
export function DeclarationDetail(props: RecordScreenProps): ReactNode {
  // The address names the declaration by its LRN (or its id); once found, the screen reads it by its id.
  const screen = useRecordScreen(declarationOptions(props.id), props, 'declaration');
  const { record: d, byId } = useRecordByNumber(declarationOptions, 'declaration', props.id, {
    id: (x) => x.id,
    number: (x) => x.lrn,
  });
  if (!d) return screen.waiting;
  return (
    <LoadedDeclaration
      key={d.id}
      declaration={d}
      staff={screen.staff}
      adminMode={screen.adminMode}
      reload={async () => (await byId.refetch()).data}
    />
  );
}

function LoadedDeclaration({
  declaration: d,
  staff,
  adminMode,
  reload,
}: {
  declaration: Declaration;
  staff: boolean;
  adminMode: boolean;
  reload: () => Promise<Declaration | undefined>;
}) {
  const navigate = useNavigate();
  const form = useForm<DeclarationFormValues>({
    resolver: declarationResolver,
    defaultValues: formValuesOf(d),
  });
  const base = useRecordBase(form, d, formValuesOf);
  const [amending, setAmending] = useState(false);
  const [asking, setAsking] = useState<'lodge' | 'delete' | 'cancel' | 'amend' | null>(null);
  const [problems, setProblems] = useState<ProblemLine[]>([]);
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [preparing, setPreparing] = useState(false);
  const update = useUpdateDeclaration();
  const lodge = useLodgeDeclaration();
  const amend = useAmendDeclaration();
  const cancel = useCancelDeclaration();
  const remove = useDeleteDeclaration();
  const copy = useCreateDeclaration();
  // "Lodged, the status follows" is done once the status follows: an answer (a rejection above all)
  // does not arrive under a toast that still says to wait for it (issue 27 item 5).
  useEffect(() => {
    if (d.status !== 'lodged') notifications.hide(lodgedToastId(d.id));
  }, [d.status, d.id]);
  const can = (action: Declaration['allowedActions'][number]) => staff && d.allowedActions.includes(action);
  const mode: Mode = can('edit') ? 'draft' : amending && can('amend') ? 'amend' : 'view';
  const guard = useUnsavedChangesGuard(mode !== 'view' && form.formState.isDirty);

  const save = async (values: DeclarationFormValues) => {
    const saved = await update.mutateAsync({
      id: d.id,
      body: { ...contentInputOf(values), version: base.version ?? d.version },
    });
    base.restart(saved);
    return saved;
  };
  const submit = useRecordSubmit(
    form,
    async (values) => {
      setProblems([]);
      await save(values);
      notifications.show({ color: 'green', message: 'Draft saved.' });
    },
    { labels: L },
  );
  const mapProblems = (error: unknown) => {
    applyProblemToForm(error, form.setError, {
      fields: fieldPathsOf(form.getValues()) as never[],
      labels: L,
    });
    setProblems(problemLines(error));
  };

  /** Unsaved changes are saved first: what is lodged is what is stored. */
  const askLodge = async () => {
    setProblems([]);
    if (form.formState.isDirty) {
      setPreparing(true);
      try {
        if (!(await form.trigger())) return;
        await save(form.getValues());
      } catch (error) {
        mapProblems(error);
        return;
      } finally {
        setPreparing(false);
      }
    }
    setAsking('lodge');
  };

  const onLodge = () =>
    lodge.mutate(
      { id: d.id, version: base.version ?? d.version },
      {
        onSuccess: (saved) => {
          base.restart(saved);
          notifications.show({
            id: lodgedToastId(saved.id),
            color: 'green',
            title: `Declaration ${saved.lrn} lodged`,
            message: 'The authority answers in the messages; the status follows on its own.',
          });
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 409) void reload();
          mapProblems(error);
        },
        onSettled: () => setAsking(null),
      },
    );

  const onAmend = (reason: string) => {
    setReasonError(undefined);
    const changes = changesOf(form.getValues(), formValuesOf(d));
    amend.mutate(
      { id: d.id, body: { version: d.version, reason, changes } },
      {
        onSuccess: (saved) => {
          setAsking(null);
          setAmending(false);
          base.restart(saved);
          notifications.show({ color: 'green', message: PENDING_TEXT.amendment });
        },
        onError: (error) => {
          setAsking(null);
          if (isApiError(error) && error.fieldErrors.some((e) => e.field === 'reason'))
            setReasonError(problemMessage(error));
          mapProblems(error);
        },
      },
    );
  };

  const onCancelRequest = (reason: string) => {
    setReasonError(undefined);
    cancel.mutate(
      { id: d.id, body: { version: d.version, reason } },
      {
        onSuccess: () => {
          setAsking(null);
          notifications.show({ color: 'green', message: PENDING_TEXT.cancellation });
        },
        onError: (error) => setReasonError(problemMessage(error)),
      },
    );
  };

  const onDelete = () =>
    remove.mutate(d.id, {
      onSuccess: () => {
        guard.release();
        notifications.show({ color: 'green', message: `Draft declaration ${d.lrn} deleted.` });
        void navigate({ to: pathFor('declarations'), replace: true });
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not deleted', message: problemMessage(error) }),
      onSettled: () => setAsking(null),
    });

  const onCopy = () =>
    copy.mutate(
      { type: d.type, copyOf: d.id },
      {
        onSuccess: (saved) => {
          notifications.show({ color: 'green', message: `Copied into the new draft ${saved.lrn}.` });
          void navigate({ to: declarationPath(saved) });
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: 'Not copied', message: problemMessage(error) }),
      },
    );

  const discardAmendment = () => {
    form.reset(formValuesOf(d));
    setAmending(false);
    setProblems([]);
  };

  const banner = (
    <Stack gap="sm">
      {d.gateway.sandbox && <SandboxNotice />}
      {d.pendingRequest && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconHourglass aria-hidden />}
          data-testid="pending-request-banner"
        >
          {PENDING_TEXT[d.pendingRequest]}
        </Alert>
      )}
      <RejectionBanner d={d} />
      <NotReleasedBanner d={d} staff={staff} />
      {mode === 'amend' && (
        <Alert
          color="blue"
          variant="light"
          icon={<IconPencil aria-hidden />}
          title="Amendment draft"
          data-testid="amend-banner"
        >
          Change what needs changing, then send the amendment with a reason. The declaration stays as lodged
          until the authority accepts it.
        </Alert>
      )}
      <ProblemsBanner
        title={mode === 'amend' ? 'Not sent' : 'Not lodged yet: fix these first'}
        lines={problems}
        onGo={(field) => goToField(form, field)}
      />
    </Stack>
  );

  const content =
    mode === 'draft' ? (
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel="Save draft"
        label="Declaration draft"
        testId="declaration-form"
        fieldLabels={L}
        onReload={async () => {
          const fresh = await reload();
          return fresh ? base.reapply(fresh) : undefined;
        }}
        {...(form.formState.isDirty ? { onCancel: () => form.reset() } : {})}
      >
        <Content form={form} declaration={d} readOnly={false} staff={staff} banner={banner} />
      </RecordFormShell>
    ) : mode === 'amend' ? (
      <Stack gap="lg" data-testid="declaration-amend">
        <Content form={form} declaration={d} readOnly={false} staff={staff} banner={banner} />
        <Group justify="flex-end">
          <Button variant="default" onClick={discardAmendment} data-testid="amend-discard">
            Discard amendment
          </Button>
          <Button
            leftSection={<IconSend size={16} aria-hidden />}
            onClick={async () => {
              setProblems([]);
              if (!form.formState.isDirty) {
                setProblems([
                  { text: 'Nothing changed yet: change the fields to amend first.', field: null },
                ]);
                return;
              }
              if (await form.trigger()) setAsking('amend');
            }}
            data-testid="amend-send"
          >
            Send amendment…
          </Button>
        </Group>
      </Stack>
    ) : (
      <Content form={form} declaration={d} readOnly staff={staff} banner={banner} />
    );

  const tabs: DetailTab[] = [
    { value: 'declaration', label: 'Declaration', badge: d.items.length || undefined, content },
    { value: 'messages', label: 'Messages', content: <Messages id={d.id} lrn={d.lrn} /> },
    {
      value: 'documents',
      label: 'Documents',
      content: <DocumentsTab recordType="declaration" recordId={d.id} />,
    },
    ...(staff
      ? [
          {
            value: 'history',
            label: 'History',
            content: (
              <RecordHistory
                query={declarationHistoryOptions(d.id)}
                fieldLabels={L}
                valueLabels={{ status: DECLARATION_STATUS_LABELS }}
                allowRaw={adminMode}
              />
            ),
          },
        ]
      : []),
  ];

  // The two requests to the authority that need a reason: the amendment and the cancellation.
  const reasonDialogs = [
    {
      kind: 'amend',
      title: `Send the amendment of ${d.lrn}?`,
      message: 'The changes go to the authority; the declaration stays as lodged until it accepts them.',
      confirmLabel: 'Send amendment',
      danger: false,
      loading: amend.isPending,
      onConfirm: onAmend,
    },
    {
      kind: 'cancel',
      title: `Cancel declaration ${d.lrn}?`,
      message: 'The authority is asked to invalidate the declaration. Until it answers, nothing changes.',
      confirmLabel: 'Request cancellation',
      danger: true,
      loading: cancel.isPending,
      onConfirm: onCancelRequest,
    },
  ] as const;

  const actions = (
    <>
      <Button
        component={Link}
        to={pathFor(sadRoute(d.type), { id: d.id })}
        variant="default"
        leftSection={<IconFileText size={16} aria-hidden />}
        data-testid="sad-view"
      >
        SAD view
      </Button>
      {can('lodge') && (
        <Button
          leftSection={<IconSend size={16} aria-hidden />}
          onClick={() => void askLodge()}
          loading={preparing}
          data-testid="lodge-declaration"
        >
          Lodge…
        </Button>
      )}
      {can('amend') && mode !== 'amend' && !d.pendingRequest && (
        <Button
          variant="light"
          leftSection={<IconPencil size={16} aria-hidden />}
          onClick={() => setAmending(true)}
          data-testid="amend-declaration"
        >
          Amend…
        </Button>
      )}
      {/* Under control (UCC art. 173(1)) staff see why they cannot amend, not a missing button. */}
      {!can('amend') && can('copy') && !d.pendingRequest && d.status === 'under_control' && (
        <Tooltip label={amendmentProblem(d.status)} multiline w={320} withArrow>
          <Button
            variant="light"
            leftSection={<IconPencil size={16} aria-hidden />}
            data-disabled
            aria-disabled
            aria-label={`Amend: not possible. ${amendmentProblem(d.status) ?? ''}`}
            onClick={(event) => event.preventDefault()}
            data-testid="amend-declaration-blocked"
          >
            Amend…
          </Button>
        </Tooltip>
      )}
      {can('cancel') && !d.pendingRequest && (
        <Button
          variant="light"
          color="red"
          leftSection={<IconBan size={16} aria-hidden />}
          onClick={() => setAsking('cancel')}
          data-testid="cancel-declaration"
        >
          Cancel declaration…
        </Button>
      )}
      {/* Under control (UCC art. 174(1)) staff see why they cannot cancel, not a missing button. */}
      {!can('cancel') && can('copy') && !d.pendingRequest && d.status === 'under_control' && (
        <Tooltip label={cancellationProblem(d.type, d.status)} multiline w={320} withArrow>
          <Button
            variant="light"
            color="red"
            leftSection={<IconBan size={16} aria-hidden />}
            data-disabled
            aria-disabled
            aria-label={`Cancel declaration: not possible. ${cancellationProblem(d.type, d.status) ?? ''}`}
            onClick={(event) => event.preventDefault()}
            data-testid="cancel-declaration-blocked"
          >
            Cancel declaration…
          </Button>
        </Tooltip>
      )}
      {can('copy') && (
        <Button
          variant="default"
          leftSection={<IconCopy size={16} aria-hidden />}
          onClick={onCopy}
          loading={copy.isPending}
          data-testid="copy-declaration"
        >
          Copy
        </Button>
      )}
      {can('delete') && (
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => setAsking('delete')}
          data-testid="delete-record"
        >
          Delete draft
        </Button>
      )}
    </>
  );

  return (
    <>
      <DetailLayout
        route="declaration"
        recordId={d.lrn}
        subtitle={<Subtitle d={d} staff={staff} />}
        status={
          <Group gap="xs">
            <StatusBadge
              status={d.status}
              colors={DECLARATION_STATUS_COLORS}
              labels={DECLARATION_STATUS_LABELS}
              size="lg"
              testId="declaration-status"
            />
            {d.gateway.sandbox && <SandboxBadge />}
          </Group>
        }
        actions={actions}
        tabs={tabs}
        side={<Side d={d} />}
      />
      {staff && (
        <>
          <LodgeDialog
            opened={asking === 'lodge'}
            declaration={d}
            loading={lodge.isPending}
            onConfirm={onLodge}
            onCancel={() => setAsking(null)}
          />
          {reasonDialogs.map(({ kind, ...dialog }) => (
            <ReasonDialog
              key={kind}
              {...dialog}
              opened={asking === kind}
              error={reasonError}
              onCancel={() => setAsking(null)}
              testId={`${kind}-dialog`}
            />
          ))}
          <ConfirmDialog
            opened={asking === 'delete'}
            title={`Delete draft ${d.lrn}?`}
            message="The draft is removed for good. Its LRN is not used again."
            confirmLabel="Delete draft"
            danger
            loading={remove.isPending}
            onConfirm={onDelete}
            onCancel={() => setAsking(null)}
          />
        </>
      )}
      {guard.dialog}
    </>
  );
}
