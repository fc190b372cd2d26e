import { config } from "zod/v4/core";

// Before any client code defines a schema: zod's compiled parsers probe `new Function`, which the page's CSP
// (no 'unsafe-eval', docs/auth.md) refuses and reports as a violation. Jitless parsing needs no eval.
config({ jitless: true });
