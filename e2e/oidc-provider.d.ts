// The few parts of oidc-provider (no bundled types) that e2e/auth.spec.ts uses.
declare module "oidc-provider" {
  import type { Server } from "node:http";
  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    listen(port: number, host: string, callback?: () => void): Server;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
  export default Provider;
}
