import { CopyButton } from "./copy-button";

export function CommandBlock({ command, label }: { command: string; label?: string }) {
  return (
    <div className="command">
      {label ? <div className="command-label">{label}</div> : null}
      <div className="command-row">
        <pre>
          <code>{command}</code>
        </pre>
        <CopyButton text={command} />
      </div>
    </div>
  );
}
