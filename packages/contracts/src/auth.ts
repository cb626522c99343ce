import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.ts';

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

/** `GET me`: the session user record. `Email` present means signed in. */
export const meSchema = z.object({
  id: z.string(),
  Email: z.string(),
  name: z.string(),
  role: roleSchema,
  party: z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable(),
  access: z.object({ cw_access: z.boolean() }),
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
