/** Constants fixed by the specification (section 9). */
export const TOKEN_STORAGE_KEY = 'bearerToken';
export const TITLE_TAG = 'FVG';
export const APP_VERSION = 'v1.1.34';
export const ANIMATION_MS = 250;
export const SERVICE_WORKER_URL = '/sw.js';
export const SERVICE_WORKER_SCOPE = '/';

/** Product decisions (docs/product.md and the README). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
export const RESET_TOKEN_TTL_MINUTES = 60;
