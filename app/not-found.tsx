import Link from "next/link";

export default function NotFound() {
  return (
    <div className="panel">
      <h1>Page not found</h1>
      <p className="lead">Nothing lives at this address.</p>
      <p>
        <Link className="button button-primary" href="/catalog">
          Open the catalog
        </Link>{" "}
        <Link className="button" href="/">
          Home
        </Link>
      </p>
    </div>
  );
}
