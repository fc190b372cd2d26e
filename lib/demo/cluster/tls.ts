import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";

// The simulator serves TLS as a real API server does: its own CA, made at start, signs a serving
// certificate for 127.0.0.1 and localhost. Clients trust the CA (the kubeconfig carries it), so none
// of them needs insecure-skip-tls-verify. Keys stay in memory; only the CA certificate is written out.

export interface ServingTls {
  /** PEM of the CA certificate, for kubeconfigs, caFile options and Prometheus' tls_config. */
  caPem: string;
  certPem: string;
  keyPem: string;
}

const DAY = 24 * 60 * 60 * 1000;

// Node makes the keys (fast, native); node-forge only builds and signs the certificates.
function keyPair() {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e), pem: privateKey };
}

function certificate(subject: string, publicKey: forge.pki.PublicKey, now: Date): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  // A positive serial: the first byte's high bit clear.
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.publicKey = publicKey;
  // Valid from an hour ago, so a client whose clock is slightly behind still accepts it.
  cert.validity.notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now.getTime() + 365 * DAY);
  cert.setSubject([{ name: "commonName", value: subject }]);
  return cert;
}

export function makeServingTls(clusterName: string, now = new Date()): ServingTls {
  const caKeys = keyPair();
  const ca = certificate(`faultline-sim-ca-${clusterName}`, caKeys.publicKey, now);
  ca.setIssuer(ca.subject.attributes);
  ca.setExtensions([
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const keys = keyPair();
  const cert = certificate("kube-apiserver", keys.publicKey, now);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: [
        { type: 7, ip: "127.0.0.1" },
        { type: 2, value: "localhost" },
      ],
    },
    { name: "authorityKeyIdentifier", keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());
  return { caPem: forge.pki.certificateToPem(ca), certPem: forge.pki.certificateToPem(cert), keyPem: keys.pem };
}
