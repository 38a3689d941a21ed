/** Checks a webhook URL at registration: https, well formed, and not pointing inside the network. */
import { AppError } from "../errors.ts";
import { assertPublicUrl } from "../net/guard.ts";

/**
 * The normalised URL (so the same receiver registered twice is recognised). A host that does not
 * resolve yet is accepted: the guard runs again before every delivery, which is the check that
 * matters; one that is known to be internal is refused now, with a clear reason.
 */
export async function checkWebhookUrl(raw: string, allow: string[]): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError("VALIDATION_ERROR", "url is not a valid URL", [{ path: "/url", message: "not a valid URL" }]);
  }
  if (url.protocol !== "https:")
    throw new AppError("VALIDATION_ERROR", "url must use https://", [{ path: "/url", message: "must use https://" }]);
  if (url.username || url.password) {
    throw new AppError("VALIDATION_ERROR", "url must not contain credentials", [
      { path: "/url", message: "must not contain user:password@" },
    ]);
  }
  if (url.href.length > 2048)
    throw new AppError("VALIDATION_ERROR", "url is longer than 2048 characters", [
      { path: "/url", message: "at most 2048 characters" },
    ]);
  try {
    await assertPublicUrl(url.href, { outboundAllow: allow });
  } catch (err) {
    // 422 is the guard's refusal; anything else (the name does not resolve yet) is left to delivery time.
    if (err instanceof AppError && err.status === 422) throw err;
  }
  return url.href;
}
