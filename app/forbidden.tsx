import { refusalOf } from "@/lib/auth/page";

// 403: signed in (or through the proxy) but without the role this page needs, or no role at all.
export default async function Forbidden() {
  const why = await refusalOf();
  return (
    <div className="panel" data-testid="forbidden">
      <h1>No access</h1>
      <p className="lead">{why}</p>
      <p>Roles come from your groups (FAULTLINE_ROLE_GROUPS); an admin of this Faultline can add yours.</p>
    </div>
  );
}
