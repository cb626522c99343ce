import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.ts';

describe('redactUrl', () => {
  it('hides access and reset tokens in query strings and keeps the rest', () => {
    expect(redactUrl('/api/chat?id=abc&access_token=eyJ.secret.sig')).toBe(
      '/api/chat?id=abc&access_token=[redacted]',
    );
    expect(redactUrl('/guest/password/reset?token=s3cret#x')).toBe(
      '/guest/password/reset?token=[redacted]#x',
    );
    expect(redactUrl('/api/dossiers?page=2')).toBe('/api/dossiers?page=2');
  });
});
