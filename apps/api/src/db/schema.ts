import type { Role } from '@fvg/contracts';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface PartiesTable {
  id: Generated<string>;
  code: string;
  name: string;
  kinds: ColumnType<string[], string[] | undefined, string[]>;
  country_code: string;
  vat_number: string | null;
  eori: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  email: string | null;
  phone: string | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string | null;
  role: Role;
  party_id: string | null;
  cw_access: Generated<boolean>;
  active: Generated<boolean>;
  password_changed_at: Generated<Date>;
  last_login_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PasswordResetTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: Generated<Date>;
  sent_at: Date | null;
  error: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface RateLimitHitsTable {
  id: Generated<string>;
  bucket: string;
  at: Generated<Date>;
}

export interface Database {
  parties: PartiesTable;
  users: UsersTable;
  password_reset_tokens: PasswordResetTokensTable;
  mail_outbox: MailOutboxTable;
  settings: SettingsTable;
  rate_limit_hits: RateLimitHitsTable;
}
