/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base address of the API; the API is served under `/api` of the same origin by default. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
