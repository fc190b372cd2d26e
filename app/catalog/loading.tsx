export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading the catalog">
      <div className="skeleton" style={{ height: "2rem", width: "40%", marginBottom: "1rem" }} />
      <div className="skeleton" style={{ height: "2.5rem", marginBottom: "1rem" }} />
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="skeleton" style={{ height: "2.6rem", marginBottom: "0.4rem" }} />
      ))}
    </div>
  );
}
