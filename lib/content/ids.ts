// The id shapes every content file shares (catalog entries, runbooks, blast-radius pages, signals).

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SIGNAL_ID = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;
