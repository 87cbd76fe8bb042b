/**
 * GET /ws/account/duo-channel/{channelId}: server-sent events, one message {mfaCode} or
 * {error:"DENIED"} per Duo prompt. The message is read from the database (services/duo.ts), so the
 * prompt may have been answered on another instance; the streams of a channel are capped (across
 * instances) and end when the channel does (used, expired).
 */
import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '../errors.js';
import { closeDuoStream, DUO_KEEPALIVE_MS, DUO_POLL_MS, openDuoChannel, openDuoStream, readDuo, touchDuoStream } from '../services/duo.js';
import { secureRequest } from '../services/publicUrl.js';
import { commonSecurityHeaders, NON_HTML_CSP } from '../security/headers.js';
import { operationRoute } from './operation.js';

const duoChannel: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;

  operationRoute(app, 'duoChannel', async (req, reply) => {
    const { channelId } = req.params;
    const channel = await openDuoChannel(ctx, channelId);
    if (!channel) return apiError(reply, 404, 'NOT_FOUND', 'Unknown or expired Duo channel');
    const stream = await openDuoStream(ctx, channel, channelId, req.ip);
    if (!stream) {
      reply.header('Retry-After', '10');
      return apiError(reply, 429, 'RATE_LIMITED', 'Too many open streams for this Duo prompt');
    }
    reply.hijack();
    const raw = reply.raw;
    // Hijacked: Fastify's onSend (security headers) does not run, so they are written here.
    raw.writeHead(200, {
      ...commonSecurityHeaders(req, secureRequest(ctx, req)),
      'Content-Security-Policy': NON_HTML_CSP,
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    raw.write('retry: 2000\n\n');
    let sent: string | null = null;
    let lastTouch = ctx.now();
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // The row goes first, then the stream ends: whoever sees the end finds the cap free again.
      closeDuoStream(ctx, stream)
        .catch((error: unknown) => req.log.warn({ err: error }, 'duo stream row not removed'))
        .finally(() => {
          if (!raw.writableEnded) raw.end();
        });
    };
    // One look at a time: the next is scheduled when this one has answered (a slow database never piles up reads).
    const check = async () => {
      try {
        const state = await readDuo(ctx, channelId);
        if (finished) return;
        if (state.ended) return finish();
        if (state.message !== null && state.message !== sent) {
          sent = state.message;
          raw.write(`data: ${state.message}\n\n`);
        }
        if (ctx.now() - lastTouch >= DUO_KEEPALIVE_MS) {
          lastTouch = ctx.now();
          await touchDuoStream(ctx, stream);
          raw.write(': keep-alive\n\n');
        }
        if (!finished) timer = setTimeout(() => void check(), DUO_POLL_MS);
      } catch (error) {
        req.log.warn({ err: error }, 'duo stream stopped');
        finish();
      }
    };
    req.raw.on('close', finish);
    await check();
  });
};
export default duoChannel;
