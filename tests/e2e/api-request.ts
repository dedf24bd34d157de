import type { APIRequestContext, PlaywrightWorkerArgs } from "@playwright/test";

/**
 * The tests' own API calls (`request`) open a connection per request. wrangler dev's proxy is a Node server that
 * closes a keep-alive connection after 5 s idle, and Node's client does not retry a POST on a connection closed as it
 * was sent: a clip posted 5.0 s after the test's previous call failed with "socket hang up" (ECONNRESET) in a full
 * run. Browsers retry such a request by themselves; this client does not.
 */
export const apiRequest = {
  request: async (
    { playwright }: Pick<PlaywrightWorkerArgs, "playwright">,
    use: (request: APIRequestContext) => Promise<void>,
  ) => {
    const request = await playwright.request.newContext({ extraHTTPHeaders: { Connection: "close" } });
    await use(request);
    await request.dispose();
  },
};
