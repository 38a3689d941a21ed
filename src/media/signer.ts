/** An HMAC-SHA256 key held by the composition root: domains get a signer, never the secret. */
export interface Signer {
  mac(text: string, encoding: "hex" | "base64url"): string;
}

export function createSigner(secret: string | Uint8Array): Signer {
  const key = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
  return { mac: (text, encoding) => new Bun.CryptoHasher("sha256", key).update(text).digest(encoding) };
}
