// `bao-kms-provider doctor` on a node whose plugin refuses to start because its config file was restored
// world-readable, as the plugin prints it (dc-tec/openbao-kubernetes-kms cmd/bao-kms-provider/diagnostics.go@14a41dab
// runDoctor with internal/cli/report.go PrintText, then main.go prints the command's error). Shared by the paste
// tests (unit and end-to-end).
export const DOCTOR_CONFIG_UNSAFE = [
  "doctor",
  "[pass] config.load: Config load - loaded typed provider configuration",
  "[fail] config.validate: Config validation - config invalid; config: file permissions unsafe: mode must not include 0037",
  "[skip] openbao.auth: OpenBao JWT login - config validation failed",
  "doctor config validation failed",
].join("\n");
