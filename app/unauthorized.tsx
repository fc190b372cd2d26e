import { refusalOf } from "@/lib/auth/page";

// 401: nobody signed in. Behind oauth2-proxy this means the request did not come through it with a user.
export default async function Unauthorized() {
  const why = await refusalOf();
  return (
    <div className="panel" data-testid="unauthorized">
      <h1>Not signed in</h1>
      <p className="lead">{why}</p>
    </div>
  );
}
