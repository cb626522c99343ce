import { Anchor, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { pathFor } from '../../lib/route-table.ts';

/*
 * How a record names another one: its number as a link to that record's screen (a dossier, a
 * declaration), a party by name. Lists, detail headers and dossier tabs use the same pieces.
 */

/** A link to another record's screen, in the list's small monospace style. */
export function RecordLink({
  to,
  children,
  size = 'sm',
  strong = false,
  truncate = false,
  testId,
}: {
  to: string;
  children: ReactNode;
  /** 'inherit' takes the size of the text around it (a record's subtitle). */
  size?: 'xs' | 'sm' | 'inherit';
  /** The record's own number (bold) rather than a reference to another one. */
  strong?: boolean;
  truncate?: boolean;
  testId?: string;
}) {
  return (
    <Anchor
      component={Link}
      to={to}
      {...(size === 'inherit' ? {} : { size })}
      ff="monospace"
      {...(strong ? { fw: 500 } : {})}
      {...(truncate ? { truncate: true } : {})}
      {...(testId ? { 'data-testid': testId } : {})}
    >
      {children}
    </Anchor>
  );
}

/** A dossier by its number, linked to its screen. */
export function DossierLink({
  dossier,
  size,
  testId,
}: {
  dossier: { number: string };
  size?: 'xs' | 'sm' | 'inherit';
  testId?: string;
}) {
  return (
    <RecordLink
      to={pathFor('dossier', { dossierId: dossier.number })}
      {...(size ? { size } : {})}
      {...(testId ? { testId } : {})}
    >
      {dossier.number}
    </RecordLink>
  );
}

/** A text that may be long: cut to the column, whole in its tooltip; none → '—'. */
export function TruncatedText({ text, title }: { text: string | null | undefined; title?: string }) {
  if (!text) return '—';
  return (
    <Text size="sm" truncate title={title ?? text}>
      {text}
    </Text>
  );
}

/**
 * A party as 'Name (CODE)' inside a line of text (a record's subtitle); staff get a link to its screen,
 * customers plain text. Underlined: a link in running text must not be told apart by colour alone
 * (WCAG 1.4.1, axe link-in-text-block).
 */
export function PartyName({
  party,
  linked,
}: {
  party: { id: string; name: string; code: string };
  linked: boolean;
}) {
  const text = `${party.name} (${party.code})`;
  if (!linked) return text;
  return (
    <Anchor component={Link} to={pathFor('party', { id: party.code })} underline="always">
      {text}
    </Anchor>
  );
}
