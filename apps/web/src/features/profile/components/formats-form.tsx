import { LANGUAGES, type UserPreferences } from '@fvg/contracts';
import { Button, Fieldset, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { Controller, type FieldPath, useForm } from 'react-hook-form';
import { browserTimeZone } from '../../../lib/display-preferences.ts';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatWall, wallTimeIn } from '../../../lib/format-date.ts';
import { useT } from '../../../lib/i18n.ts';
import { useUpdateProfile } from '../api/profile-api.ts';
import { FormMessage } from './form-message.tsx';
import {
  BROWSER_ZONE,
  currencyOptions,
  dateFormatOptions,
  decimalOptions,
  fromSeparatorValue,
  thousandsOptions,
  timeFormatOptions,
  timeZoneOptions,
  toSeparatorValue,
} from './profile-options.ts';

export interface FormatValues {
  currency: string;
  decimalSeparator: string;
  thousandsSeparator: string;
  dateFormat: string;
  timeFormat: string;
  timeZone: string;
  language: string;
}

export function formatValues(p: UserPreferences): FormatValues {
  return {
    currency: p.currency,
    decimalSeparator: p.decimalSeparator,
    thousandsSeparator: toSeparatorValue(p.thousandsSeparator),
    dateFormat: p.dateFormat,
    timeFormat: p.timeFormat,
    timeZone: p.timeZone ?? BROWSER_ZONE,
    language: p.language,
  };
}

export function formatInput(v: FormatValues): UserPreferences {
  return {
    currency: v.currency,
    decimalSeparator: v.decimalSeparator as UserPreferences['decimalSeparator'],
    thousandsSeparator: fromSeparatorValue(v.thousandsSeparator) as UserPreferences['thousandsSeparator'],
    dateFormat: v.dateFormat as UserPreferences['dateFormat'],
    timeFormat: v.timeFormat as UserPreferences['timeFormat'],
    timeZone: v.timeZone === BROWSER_ZONE ? null : v.timeZone,
    language: v.language as UserPreferences['language'],
  };
}

const FIELDS: FieldPath<FormatValues>[] = [
  'currency',
  'decimalSeparator',
  'thousandsSeparator',
  'dateFormat',
  'timeFormat',
  'timeZone',
  'language',
];

/** A sample amount with a thousand and a million group, so every separator shows. */
const SAMPLE_AMOUNT = '1234567.89';

/**
 * How amounts, dates and times read across the app: saved on the user, applied through the one
 * formatter the moment the answer arrives (lib/session.ts). The examples follow the choices live.
 */
export function FormatsForm({ preferences }: { preferences: UserPreferences }) {
  const t = useT('profile');
  const update = useUpdateProfile();
  const values = useMemo(() => formatValues(preferences), [preferences]);
  const form = useForm<FormatValues>({ values });
  const { errors, isSubmitting, isDirty } = form.formState;
  const v = form.watch();
  const browserZone = browserTimeZone();

  const labels: Record<keyof FormatValues, string> = {
    currency: t('currency.label'),
    decimalSeparator: t('decimal.label'),
    thousandsSeparator: t('thousands.label'),
    dateFormat: t('dateFormat.label'),
    timeFormat: t('timeFormat.label'),
    timeZone: t('timeZone.label'),
    language: t('language.label'),
  };
  const options = {
    currency: currencyOptions(),
    decimalSeparator: decimalOptions(),
    thousandsSeparator: thousandsOptions(),
    dateFormat: dateFormatOptions(),
    timeFormat: timeFormatOptions(),
    timeZone: timeZoneOptions(browserZone, preferences.timeZone),
    language: LANGUAGES.map((l) => ({ value: l, label: t(`language.${l}`) })),
  };

  const separatorsClash = v.decimalSeparator === fromSeparatorValue(v.thousandsSeparator);
  const number = {
    currency: v.currency,
    decimal: v.decimalSeparator,
    thousands: fromSeparatorValue(v.thousandsSeparator),
  };
  const amountExample = separatorsClash ? '—' : formatMoney(SAMPLE_AMOUNT, number);
  const numberExample = separatorsClash ? '—' : formatNumber('-9876.5', {}, number);
  const zone = v.timeZone === BROWSER_ZONE ? browserZone : v.timeZone;
  const dateExample = formatWall(wallTimeIn(new Date(), zone), `${v.dateFormat}, ${v.timeFormat}`);

  const submit = form.handleSubmit(async (values) => {
    try {
      const me = await update.mutateAsync({ preferences: formatInput(values) });
      form.reset(formatValues(me.preferences));
      notifications.show({ color: 'teal', message: t('formats.saved') });
    } catch (error) {
      applyProblemToForm(error, form.setError, {
        fields: FIELDS,
        labels,
        // The API names them under `preferences.`; the form holds them at the top.
        rename: Object.fromEntries(FIELDS.map((f) => [`preferences.${f}`, f])),
      });
    }
  });

  const select = (name: keyof FormatValues, extra: { searchable?: boolean; testId: string }) => (
    <Controller
      control={form.control}
      name={name}
      rules={{
        required: t('formats.required', { field: labels[name] }),
        ...(name === 'thousandsSeparator'
          ? {
              validate: (value: string, all: FormatValues) =>
                all.decimalSeparator === fromSeparatorValue(value) ? t('thousands.clash') : true,
            }
          : {}),
      }}
      render={({ field, fieldState }) => (
        <Select
          ref={field.ref}
          label={labels[name]}
          data={options[name]}
          value={field.value || null}
          onChange={(next) => field.onChange(next ?? '')}
          onBlur={field.onBlur}
          allowDeselect={false}
          searchable={extra.searchable ?? false}
          nothingFoundMessage={t('formats.nothingFound')}
          error={fieldState.error?.message}
          comboboxProps={{ withinPortal: true }}
          data-testid={extra.testId}
        />
      )}
    />
  );

  return (
    <form
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={t('formats.title')}
      data-testid="profile-formats-form"
    >
      <Stack gap="md">
        <Fieldset legend={t('formats.numbers')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {select('currency', { searchable: true, testId: 'profile-currency' })}
            {select('decimalSeparator', { testId: 'profile-decimal' })}
            {select('thousandsSeparator', { testId: 'profile-thousands' })}
          </SimpleGrid>
          <Text size="sm" mt="sm" aria-live="polite" data-testid="profile-number-example">
            {t('formats.example')} <strong>{amountExample}</strong> · <strong>{numberExample}</strong>
          </Text>
        </Fieldset>
        <Fieldset legend={t('formats.dates')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {select('dateFormat', { testId: 'profile-date-format' })}
            {select('timeFormat', { testId: 'profile-time-format' })}
            {select('timeZone', { searchable: true, testId: 'profile-time-zone' })}
          </SimpleGrid>
          <Text size="sm" mt="sm" aria-live="polite" data-testid="profile-date-example">
            {t('formats.now')} <strong>{dateExample}</strong>
          </Text>
        </Fieldset>
        <Fieldset legend={t('language.title')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {select('language', { testId: 'profile-language' })}
          </SimpleGrid>
          <Text size="sm" c="dimmed" mt="xs">
            {t('language.hint')}
          </Text>
        </Fieldset>
        <Group>
          <Button type="submit" loading={isSubmitting} disabled={!isDirty} data-testid="profile-formats-save">
            {t('formats.save')}
          </Button>
          {isDirty && (
            <Button variant="subtle" onClick={() => form.reset(values)} data-testid="profile-formats-reset">
              {t('formats.discard')}
            </Button>
          )}
        </Group>
        <FormMessage errors={errors} testId="profile-formats-message" />
      </Stack>
    </form>
  );
}
