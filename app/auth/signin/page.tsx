import type { Metadata } from "next";
import { connection } from "next/server";

export const metadata: Metadata = { title: "Sign in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Public: where a signed-out person (or one whose session ended) lands under FAULTLINE_AUTH=oidc.
export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  await connection();
  const query = await searchParams;
  const error = typeof query.error === "string" ? query.error.slice(0, 300) : undefined;
  return (
    <div className="panel" data-testid="signin">
      <h1>Sign in to Faultline</h1>
      {query["signed-out"] ? <p className="lead">You are signed out.</p> : <p className="lead">Sign in with your organisation&apos;s account to continue.</p>}
      {error ? (
        <p className="field-error" role="alert">
          Sign-in failed: {error}
        </p>
      ) : null}
      <p>
        <a className="button button-primary" href="/auth/start">
          Sign in
        </a>
      </p>
    </div>
  );
}
