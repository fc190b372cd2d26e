import Link from "next/link";

export default function BlastRadiusNotFound() {
  return (
    <div className="panel">
      <h1>No blast-radius page for this component</h1>
      <p>
        <Link className="button button-primary" href="/blast-radius">
          All components
        </Link>
      </p>
    </div>
  );
}
