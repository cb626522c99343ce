import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';
import { isTimeZone } from './records.ts';
import { isCurrencyCode } from './validators/customs.ts';

export const ROLES = ['admin', 'staff', 'customer'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long')
  .pipe(z.email({ message: 'Enter a valid email address' }));

export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters`);

/** `POST auth/access_token`: the credentials. */
export const loginRequestSchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** `POST auth/access_token`: the answer, spelled as the specification spells it. */
export const loginResponseSchema = z.object({ Token: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/*
 * The profile (`/profile`): what a user sets for themselves. `GET me` carries `preferences`;
 * `PATCH /api/profile` changes name and preferences; `POST /api/profile/password` the password.
 */

/** Languages with a catalogue; English first (docs/adr/0038-i18n.md). */
export const LANGUAGES = ['en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Date formats a user may choose (dayjs tokens, as the web's formatter and date inputs take them). */
export const DATE_FORMATS = [
  'D MMM YYYY',
  'DD-MM-YYYY',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'YYYY-MM-DD',
  'DD.MM.YYYY',
] as const;
export const TIME_FORMATS = ['HH:mm', 'h:mm A'] as const;
/** Separators a user may choose; '' = no thousands grouping. */
export const DECIMAL_SEPARATORS = ['.', ','] as const;
export const THOUSANDS_SEPARATORS = [',', '.', ' ', "'", ''] as const;

export const userPreferencesSchema = z.object({
  /** ISO 4217. Default USD (the spec's number format). */
  currency: z.string(),
  decimalSeparator: z.enum(DECIMAL_SEPARATORS),
  thousandsSeparator: z.enum(THOUSANDS_SEPARATORS),
  dateFormat: z.enum(DATE_FORMATS),
  timeFormat: z.enum(TIME_FORMATS),
  /** IANA zone; null = the browser's. */
  timeZone: z.string().nullable(),
  language: z.enum(LANGUAGES),
});
export type UserPreferences = z.infer<typeof userPreferencesSchema>;

export const DEFAULT_USER_PREFERENCES: Readonly<UserPreferences> = Object.freeze({
  currency: 'USD',
  decimalSeparator: '.',
  thousandsSeparator: ',',
  dateFormat: 'D MMM YYYY',
  timeFormat: 'HH:mm',
  timeZone: null,
  language: 'en',
});

/** `GET me`: the session user record. `Email` present means signed in. */
export const meSchema = z.object({
  id: z.string(),
  Email: z.string(),
  name: z.string(),
  role: roleSchema,
  party: z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable(),
  access: z.object({ cw_access: z.boolean() }),
  /** The profile's choices (additive: a record without them reads as the defaults). */
  preferences: userPreferencesSchema.default(() => ({ ...DEFAULT_USER_PREFERENCES })),
});
export type Me = z.infer<typeof meSchema>;

/** `POST auth/pwd/link`: the password-forgot request. */
export const pwdLinkRequestSchema = z.strictObject({ email: emailSchema });
export type PwdLinkRequest = z.infer<typeof pwdLinkRequestSchema>;

/** `POST auth/pwd/reset`: the password-reset request. */
export const pwdResetRequestSchema = z.strictObject({
  token: z.string().min(1, 'The reset link is incomplete').max(200),
  password: newPasswordSchema,
});
export type PwdResetRequest = z.infer<typeof pwdResetRequestSchema>;

/** The one answer both password calls give on success. */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const PWD_LINK_ANSWER =
  'If an account exists for this address, we have sent a link to reset its password.';

/** Claims our access tokens carry besides the registered ones (sub, iat, exp). */
export const accessClaimsSchema = z.object({
  sub: z.string(),
  email: z.string(),
  role: roleSchema,
  party: z.string().nullable().optional(),
  cw_access: z.boolean().optional(),
});
export type AccessClaims = z.infer<typeof accessClaimsSchema>;

/** The access flag of a token payload: `cw_access`, false when absent or not a boolean true. */
export function cwAccessOf(payload: unknown): boolean {
  if (payload === null || typeof payload !== 'object') return false;
  return (payload as Record<string, unknown>).cw_access === true;
}

const SEPARATORS_DIFFER = 'The decimal and thousands separators must differ';

/** The changeable part of the preferences, as `PATCH /api/profile` takes it (every key optional). */
export const userPreferencesPatchSchema = z.strictObject({
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCurrencyCode, 'Choose an ISO 4217 currency, e.g. USD or EUR')
    .optional(),
  decimalSeparator: z.enum(DECIMAL_SEPARATORS, 'Choose "." or ","').optional(),
  thousandsSeparator: z.enum(THOUSANDS_SEPARATORS, 'Choose a thousands separator from the list').optional(),
  dateFormat: z.enum(DATE_FORMATS, 'Choose a date format from the list').optional(),
  timeFormat: z.enum(TIME_FORMATS, 'Choose a time format from the list').optional(),
  timeZone: z
    .string()
    .trim()
    .max(64)
    .refine(isTimeZone, 'Choose a time zone such as Europe/Amsterdam')
    .nullable()
    .optional(),
  language: z.enum(LANGUAGES, 'Choose a language from the list').optional(),
});
export type UserPreferencesPatch = z.infer<typeof userPreferencesPatchSchema>;

/** The message for preferences whose separators collide, or undefined (checked on the merged result). */
export function separatorsProblem(p: Pick<UserPreferences, 'decimalSeparator' | 'thousandsSeparator'>) {
  return p.decimalSeparator === p.thousandsSeparator ? SEPARATORS_DIFFER : undefined;
}

/** `PATCH /api/profile`: the user's own name and preferences; absent keys stay as they are. */
export const profileUpdateSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'Enter your name').max(200, 'Use at most 200 characters').optional(),
    preferences: userPreferencesPatchSchema.optional(),
  })
  .superRefine((value, ctx) => {
    const p = value.preferences;
    if (p?.decimalSeparator !== undefined && p.thousandsSeparator !== undefined) {
      const message = separatorsProblem({
        decimalSeparator: p.decimalSeparator,
        thousandsSeparator: p.thousandsSeparator,
      });
      if (message) ctx.addIssue({ code: 'custom', path: ['preferences', 'thousandsSeparator'], message });
    }
  });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** `POST /api/profile/password`: the current password proves it is the owner; the new one as a reset. */
export const passwordChangeRequestSchema = z.strictObject({
  currentPassword: z.string().min(1, 'Enter your current password').max(PASSWORD_MAX_LENGTH),
  newPassword: newPasswordSchema,
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

/** The answer: this session's fresh token (every token issued before the change no longer works). */
export const passwordChangeResponseSchema = z.object({ Token: z.string(), message: z.string() });
export type PasswordChangeResponse = z.infer<typeof passwordChangeResponseSchema>;
