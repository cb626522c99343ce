import {
  CSV_IMPORT_COLUMNS,
  type CsvImportResponse,
  type CsvImportRow,
  MAX_CSV_IMPORT_ROWS,
} from '@fvg/contracts';
import { Alert, Button, Code, FileInput, Group, List, Stack, Switch, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, type RecordColumn } from '../../../components/records/data-table.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { formatNumber } from '../../../lib/format.ts';
import { useImportCsv } from '../api/container-events-api.ts';

const ROW_STATUS_LABELS: Record<CsvImportRow['status'], string> = {
  valid: 'Valid',
  created: 'Imported',
  duplicate: 'Already imported',
  invalid: 'Error',
  skipped: 'Skipped (error)',
};
const ROW_STATUS_COLORS: Record<CsvImportRow['status'], string> = {
  valid: 'green',
  created: 'green',
  duplicate: 'gray',
  invalid: 'red',
  skipped: 'orange',
};

const problemsOf = (r: CsvImportRow) => (r.errors ?? []).map((e) => `${e.field}: ${e.message}`).join('; ');

const rowColumns: RecordColumn<CsvImportRow>[] = [
  { id: 'row', header: 'Line', width: 70, align: 'right', required: true, cell: (r) => r.row },
  {
    id: 'status',
    header: 'Status',
    width: 150,
    required: true,
    cell: (r) => (
      <StatusBadge
        status={r.status}
        colors={ROW_STATUS_COLORS}
        labels={ROW_STATUS_LABELS}
        size="sm"
        testId="import-row-status"
      />
    ),
  },
  { id: 'container', header: 'Container', width: 130, cell: (r) => r.equipmentReference ?? '—' },
  {
    id: 'errors',
    header: 'Problems',
    width: 420,
    required: true,
    cell: (r) =>
      r.errors?.length ? (
        <Text size="sm" c="red" truncate title={problemsOf(r)} data-testid="import-row-errors">
          {problemsOf(r)}
        </Text>
      ) : (
        '—'
      ),
  },
  {
    id: 'eventID',
    header: 'Event ID',
    width: 300,
    hiddenByDefault: true,
    cell: (r) => (
      <Text size="sm" ff="monospace" truncate>
        {r.eventID ?? '—'}
      </Text>
    ),
  },
];

/** The file-level problem of a refused upload (no header, unknown columns…), with its field messages. */
function UploadProblem({ error }: { error: unknown }) {
  const fields = isApiError(error) ? error.fieldErrors : [];
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title="The file could not be read"
      role="alert"
      data-testid="import-error"
    >
      <Stack gap={4}>
        <Text size="sm">{problemMessage(error)}</Text>
        {fields.length > 0 && (
          <List size="sm">
            {fields.slice(0, 20).map((f) => (
              <List.Item key={`${f.field}:${f.message}`}>
                {f.field}: {f.message}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Alert>
  );
}

function PreviewSummary({ preview }: { preview: CsvImportResponse }) {
  const ok = preview.invalid === 0;
  return (
    <Alert
      color={ok ? 'green' : 'orange'}
      variant="light"
      icon={ok ? <IconCircleCheck aria-hidden /> : <IconAlertTriangle aria-hidden />}
      title={
        ok
          ? 'Every row is valid'
          : `${formatNumber(preview.invalid)} of ${formatNumber(preview.total)} rows have errors`
      }
      data-testid="import-preview-summary"
    >
      <Text size="sm">
        {formatNumber(preview.total)} rows: {formatNumber(preview.valid)} new and valid,{' '}
        {formatNumber(preview.invalid)} with errors, {formatNumber(preview.duplicates)} already imported.
        Nothing has been stored yet.
        {!ok &&
          ' Correct the file and choose it again, or import only the valid rows (the rows with errors are left out).'}
      </Text>
    </Alert>
  );
}

function ResultSummary({ result }: { result: CsvImportResponse }) {
  const skipped = result.rows.filter((r) => r.status === 'skipped').length;
  return (
    <Alert
      color="green"
      variant="light"
      icon={<IconCircleCheck aria-hidden />}
      title={`${formatNumber(result.created)} ${result.created === 1 ? 'event' : 'events'} imported`}
      role="status"
      data-testid="import-result"
    >
      <Text size="sm">
        {formatNumber(result.created)} imported, {formatNumber(skipped)} {skipped === 1 ? 'row' : 'rows'} with
        errors skipped, {formatNumber(result.duplicates)} already there. An event goes to the one active
        dossier that names its container, booking or bill of lading within its dates; the others wait under
        Unlinked events.
      </Text>
    </Alert>
  );
}

/**
 * CSV import of container events (staff): choosing a file checks every row on the server without
 * storing anything (preview); "Import" stores them all and is only offered when no row has errors;
 * "Import valid rows" is the explicit choice to leave the rows with errors out.
 */
export function CsvImport() {
  const [file, setFile] = useState<File | null>(null);
  const [onlyErrors, setOnlyErrors] = useState(true);
  const preview = useImportCsv();
  const commit = useImportCsv();
  const checked = preview.data;
  const result = commit.data;

  const choose = (next: File | null) => {
    setFile(next);
    commit.reset();
    preview.reset();
    setOnlyErrors(true);
    if (next) preview.mutate({ file: next, mode: 'preview' });
  };
  const run = (validRowsOnly: boolean) => {
    if (file) commit.mutate({ file, mode: 'commit', validRowsOnly });
  };

  const shown = result ?? checked;
  const rows =
    shown && onlyErrors && shown.invalid > 0 ? shown.rows.filter((r) => r.errors?.length) : shown?.rows;

  return (
    <Stack gap="md" data-testid="csv-import">
      <Text size="sm" c="dimmed">
        A header row and up to {formatNumber(MAX_CSV_IMPORT_ROWS)} rows, separated by commas or semicolons,
        with DCSA field names as columns (any order): <Code>{CSV_IMPORT_COLUMNS.join(', ')}</Code>. Rows
        without an <Code>eventID</Code> get one from their content, so importing a file twice stores nothing
        new.
      </Text>
      <Group align="flex-end" gap="sm">
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv,text/plain"
          value={file}
          onChange={choose}
          clearable
          leftSection={<IconFileTypeCsv size={16} aria-hidden />}
          disabled={commit.isPending}
          w={360}
          data-testid="import-file"
        />
        {preview.isPending && (
          <Text size="sm" c="dimmed" data-testid="import-checking">
            Checking the file…
          </Text>
        )}
      </Group>

      {preview.isError && <UploadProblem error={preview.error} />}
      {commit.isError && <UploadProblem error={commit.error} />}

      {checked && !result && (
        <>
          <PreviewSummary preview={checked} />
          <Group gap="sm">
            <Button
              leftSection={<IconUpload size={16} aria-hidden />}
              onClick={() => run(false)}
              disabled={checked.invalid > 0 || checked.valid === 0}
              loading={commit.isPending && commit.variables?.validRowsOnly === false}
              data-testid="import-commit"
            >
              Import
            </Button>
            {checked.invalid > 0 && (
              <Button
                variant="light"
                color="orange"
                onClick={() => run(true)}
                disabled={checked.valid === 0}
                loading={commit.isPending && commit.variables?.validRowsOnly === true}
                data-testid="import-valid-rows"
              >
                Import {formatNumber(checked.valid)} valid {checked.valid === 1 ? 'row' : 'rows'}
              </Button>
            )}
            {checked.valid === 0 && (
              <Text size="sm" c="dimmed" data-testid="import-nothing">
                No row can be imported.
              </Text>
            )}
          </Group>
        </>
      )}

      {result && (
        <>
          <ResultSummary result={result} />
          <Group>
            <Button variant="default" onClick={() => choose(null)} data-testid="import-another">
              Import another file
            </Button>
          </Group>
        </>
      )}

      {shown && (
        <Stack gap="xs">
          {shown.invalid > 0 && (
            <Switch
              label="Only rows with errors"
              checked={onlyErrors}
              onChange={(event) => setOnlyErrors(event.currentTarget.checked)}
              data-testid="import-only-errors"
            />
          )}
          <DataTable<CsvImportRow>
            tableId="csv-import-rows"
            label="Rows of the file"
            columns={rowColumns}
            rows={rows ?? []}
            getRowId={(r) => String(r.row)}
            getRowTestId={(r) => `import-row-${r.row}`}
            empty={<Text c="dimmed">No rows.</Text>}
            maxHeight={420}
          />
        </Stack>
      )}
    </Stack>
  );
}
