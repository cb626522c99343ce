import { describe, expect, it } from 'vitest';
import { documentUpdateSchema, sanitizeFileName } from './documents.ts';
import { findTextProblem } from './primitives.ts';

describe('sanitizeFileName', () => {
  it('cuts a long name between characters, never inside a surrogate pair', () => {
    const name = `a${'😀'.repeat(150)}.pdf`;
    const cut = sanitizeFileName(name);
    // A plain slice(0, 196) ends in half an emoji, which the input guard refuses as a lone surrogate.
    expect(findTextProblem(name.slice(0, 196))).toBeDefined();
    expect(findTextProblem(cut)).toBeUndefined();
    expect(cut).toBe(`a${'😀'.repeat(97)}.pdf`);
    expect(cut.length).toBeLessThanOrEqual(200);
    // The same name as a rename is accepted and stored as the cut one.
    const parsed = documentUpdateSchema.safeParse({ fileName: name, version: 1 });
    expect(parsed.success && parsed.data.fileName).toBe(cut);
  });

  it('still cuts plain names to 200 characters with the extension kept', () => {
    expect(sanitizeFileName(`${'a'.repeat(300)}.pdf`)).toBe(`${'a'.repeat(196)}.pdf`);
    expect(sanitizeFileName(`${'😀'.repeat(150)}`)).toBe('😀'.repeat(100));
  });
});
