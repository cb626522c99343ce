import { DEFAULT_USER_PREFERENCES, type UserPreferences } from '@fvg/contracts';
import type { Db } from '../../db/database.ts';

type Row = {
  currency: string;
  decimal_separator: string;
  thousands_separator: string;
  date_format: string;
  time_format: string;
  time_zone: string | null;
  language: string;
};

/** The table's check constraints hold the same lists as the contract, so a stored row is always one of them. */
function toPreferences(row: Row | undefined): UserPreferences {
  if (!row) return { ...DEFAULT_USER_PREFERENCES };
  return {
    currency: row.currency,
    decimalSeparator: row.decimal_separator as UserPreferences['decimalSeparator'],
    thousandsSeparator: row.thousands_separator as UserPreferences['thousandsSeparator'],
    dateFormat: row.date_format as UserPreferences['dateFormat'],
    timeFormat: row.time_format as UserPreferences['timeFormat'],
    timeZone: row.time_zone,
    language: row.language as UserPreferences['language'],
  };
}

export function profileRepository(db: Db) {
  return {
    /** The user's preferences; the defaults when they never changed any. */
    async preferences(userId: string): Promise<UserPreferences> {
      const row = await db
        .selectFrom('user_preferences')
        .select([
          'currency',
          'decimal_separator',
          'thousands_separator',
          'date_format',
          'time_format',
          'time_zone',
          'language',
        ])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return toPreferences(row);
    },

    async savePreferences(userId: string, p: UserPreferences): Promise<void> {
      const values = {
        currency: p.currency,
        decimal_separator: p.decimalSeparator,
        thousands_separator: p.thousandsSeparator,
        date_format: p.dateFormat,
        time_format: p.timeFormat,
        time_zone: p.timeZone,
        language: p.language,
        updated_at: new Date(),
      };
      await db
        .insertInto('user_preferences')
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
    },

    rename: (userId: string, name: string) =>
      db.updateTable('users').set({ name, updated_at: new Date() }).where('id', '=', userId).execute(),
  };
}
