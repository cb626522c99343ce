import { Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { DATA_ELEMENTS } from './declaration-meta.ts';

/**
 * A field's label with its Annex B data element number in a tooltip (issue 26 item 9): the name a clerk
 * reads, the number a broker and the authority's guidance use. The icon holds no text and is hidden
 * from assistive technology, so the field's accessible name stays its visible label; the number is a
 * supplement for the eye (the API reference names it too).
 */
export function DataElementLabel({ field, children }: { field: string; children: ReactNode }) {
  const de = DATA_ELEMENTS[field];
  if (!de) return <>{children}</>;
  // Inline after the text, held to its last word, so a label that wraps never leaves the icon alone.
  const text = typeof children === 'string' ? children : null;
  const cut = text ? text.lastIndexOf(' ') + 1 : 0;
  return (
    <>
      {text ? text.slice(0, cut) : children}
      <span style={{ whiteSpace: 'nowrap' }}>
        {text ? text.slice(cut) : null}
        <Tooltip label={`Data element ${de} (UCC Annex B)`} withArrow openDelay={200}>
          <span
            data-testid={`de-${field}`}
            data-de={de}
            style={{
              display: 'inline-block',
              marginLeft: 4,
              verticalAlign: '-2px',
              color: 'var(--mantine-color-dimmed)',
            }}
          >
            <IconInfoCircle size={13} aria-hidden />
          </span>
        </Tooltip>
      </span>
    </>
  );
}
