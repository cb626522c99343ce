import { createHash, randomBytes } from 'node:crypto';
import { type AccessClaims, accessClaimsSchema } from '@fvg/contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'fvg';

export interface AccessToken extends AccessClaims {
  iat: number;
  exp: number;
}

export interface TokenSigner {
  sign(claims: AccessClaims): Promise<string>;
  /** The verified claims, or undefined for a missing, tampered, expired or malformed token. */
  verify(token: string): Promise<AccessToken | undefined>;
}

export function createTokenSigner(secret: string, ttlHours: number): TokenSigner {
  const key = new TextEncoder().encode(secret);
  return {
    sign: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setSubject(claims.sub)
        // Milliseconds, not whole seconds (a JWT NumericDate may be fractional): a password change
        // refuses tokens issued before it, and the fresh token of the changing session comes out
        // within the same second (auth.service.ts `standing`).
        .setIssuedAt(Date.now() / 1000)
        .setExpirationTime(`${ttlHours}h`)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
        const claims = accessClaimsSchema.safeParse(payload);
        if (!claims.success || typeof payload.iat !== 'number' || typeof payload.exp !== 'number')
          return undefined;
        return { ...claims.data, iat: payload.iat, exp: payload.exp };
      } catch (e) {
        if (e instanceof joseErrors.JOSEError) return undefined;
        throw e;
      }
    },
  };
}

/** A single-use secret for mailed links: 256 random bits, URL-safe. Only its hash is stored. */
export function newOpaqueToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOpaqueToken(token) };
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
