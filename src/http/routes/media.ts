/**
 * GET /media/<key>: signed, expiring blob downloads with HTTP range support (players seek).
 * Stored sources are whatever a tenant uploaded (an HTML page, an SVG): served from the API's
 * origin as a live page they would run script there, so they are attachments under a CSP that
 * allows nothing, and no type is sniffed. Podcast audio may play inline.
 */
import { Elysia } from "elysia";
import { AppError } from "../../errors.ts";
import { blobPath, isBlobKey } from "../../media/blob-store.ts";
import { fileResponse } from "../../media/file-response.ts";
import type { Services } from "../../services.ts";

export const mediaRoutes = (svc: Services) =>
  new Elysia({ name: "media" }).get(
    "/media/*",
    async ({ params, query, request }) => {
      const key = params["*"];
      if (!isBlobKey(key)) throw new AppError("NOT_FOUND", "No such media");
      const check = svc.media.verify(key, query.exp ?? null, query.sig ?? null);
      if (check === "expired")
        throw new AppError("MEDIA_URL_EXPIRED", "This media link has expired; request a fresh one");
      if (check !== "ok") throw new AppError("MEDIA_URL_INVALID", "Invalid media signature");
      const file = Bun.file(blobPath(svc.cfg.blobDir, key));
      if (!(await file.exists())) throw new AppError("NOT_FOUND", "No such media");
      const audio = file.type.startsWith("audio/");
      return fileResponse(request, file, {
        "content-type": file.type,
        // Signed URLs expire, so neither browsers nor proxies may keep them.
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        "content-disposition": `${audio ? "inline" : "attachment"}; filename="${key.split("/").pop()}"`,
        // Audio plays in the browser's own player, whose page a CSP would stop loading the sound.
        ...(audio ? {} : { "content-security-policy": "default-src 'none'; sandbox" }),
      });
    },
    { detail: { summary: "Signed media download (range requests supported)", tags: ["media"], security: [] } },
  );
