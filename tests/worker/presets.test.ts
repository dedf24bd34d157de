import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createPresetResponseSchema, presetsResponseSchema } from "~/domain/api";
import { MAX_PRESETS } from "~/domain/presets";
import { countRows, get, insertUser, post, sessionFor } from "./helpers";

const preset = { name: "Shorts", format: "mp4", quality: "720p", clipSeconds: 45 };

function api(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
  return exports.default.fetch(
    new Request(`http://localhost/api/v1${path}`, {
      method: init.method ?? "GET",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
}

const accounts: Record<string, { id: string; cookie: string; token: string }> = {};

beforeAll(async () => {
  for (const plan of ["Free", "Basic", "Plugin", "Advanced", "Pro"]) {
    const email = `presets-${plan.toLowerCase()}@example.com`;
    const id = await insertUser({ email, plan });
    const cookie = await sessionFor(id);
    const res = await post("/api/v1/token", {}, { cookie });
    const { token } = (await res.json()) as { token: string };
    accounts[plan] = { id, cookie, token };
  }
});

describe("custom presets: Free, Basic and Plugin are refused", () => {
  for (const plan of ["Free", "Basic", "Plugin"]) {
    it(`${plan}: 403 plan_limit on GET, POST and DELETE, nothing written`, async () => {
      const { id, token } = accounts[plan]!;
      const refused = {
        error: { code: "plan_limit", message: "Custom presets are part of the Advanced plan." },
      };
      const list = await api("/presets", token);
      expect(list.status).toBe(403);
      expect(await list.json()).toEqual(refused);
      const save = await api("/presets", token, { method: "POST", body: preset });
      expect(save.status).toBe(403);
      expect(await save.json()).toEqual(refused);
      const del = await api(`/presets/${crypto.randomUUID()}`, token, { method: "DELETE" });
      expect(del.status).toBe(403);
      expect(await countRows("SELECT count(*) AS n FROM presets WHERE user_id = ?", id)).toBe(0);
    });
  }
});

describe("custom presets: Advanced and Pro", () => {
  for (const plan of ["Advanced", "Pro"]) {
    it(`${plan}: save (201), list, delete (204), and the list is empty again`, async () => {
      const { token } = accounts[plan]!;
      const save = await api("/presets", token, { method: "POST", body: preset });
      expect(save.status).toBe(201);
      const { preset: saved } = createPresetResponseSchema.parse(await save.json());
      expect(saved).toMatchObject(preset);
      const list = presetsResponseSchema.parse(await (await api("/presets", token)).json());
      expect(list.presets.map((p) => p.id)).toEqual([saved.id]);
      const del = await api(`/presets/${saved.id}`, token, { method: "DELETE" });
      expect(del.status).toBe(204);
      expect(presetsResponseSchema.parse(await (await api("/presets", token)).json()).presets).toEqual([]);
    });
  }

  it("clip length is optional; bad input is a 422 and writes nothing", async () => {
    const { id, token } = accounts.Pro!;
    const before = await countRows("SELECT count(*) AS n FROM presets WHERE user_id = ?", id);
    for (const body of [
      { ...preset, name: "" },
      { ...preset, format: "exe" },
      { ...preset, quality: "8k" },
      { ...preset, clipSeconds: -1 },
      { name: "x".repeat(61), format: "mp4", quality: "720p" },
    ]) {
      const res = await api("/presets", token, { method: "POST", body });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
    }
    expect(await countRows("SELECT count(*) AS n FROM presets WHERE user_id = ?", id)).toBe(before);
    const noLength = await api("/presets", token, {
      method: "POST",
      body: { name: "Audio", format: "mp3", quality: "360p" },
    });
    expect(noLength.status).toBe(201);
    expect(createPresetResponseSchema.parse(await noLength.json()).preset.clipSeconds).toBeNull();
  });

  it("a preset the plan cannot cut is refused (Advanced: clips up to 120 s)", async () => {
    const res = await api("/presets", accounts.Advanced!.token, {
      method: "POST",
      body: { ...preset, name: "Too long", clipSeconds: 150 },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("plan_limit");
  });

  it("another account's preset cannot be deleted (404) and stays", async () => {
    const save = await api("/presets", accounts.Pro!.token, { method: "POST", body: { ...preset, name: "Mine" } });
    const { preset: mine } = createPresetResponseSchema.parse(await save.json());
    const del = await api(`/presets/${mine.id}`, accounts.Advanced!.token, { method: "DELETE" });
    expect(del.status).toBe(404);
    expect(await countRows("SELECT count(*) AS n FROM presets WHERE id = ?", mine.id)).toBe(1);
  });

  it(`at most ${MAX_PRESETS} presets per account, also when saved at once`, async () => {
    const { id, token } = accounts.Advanced!;
    const existing = await countRows("SELECT count(*) AS n FROM presets WHERE user_id = ?", id);
    const results = await Promise.all(
      Array.from({ length: MAX_PRESETS + 5 - existing }, (_, i) =>
        api("/presets", token, { method: "POST", body: { ...preset, name: `Preset ${i}` } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_PRESETS - existing);
    expect(results.filter((r) => r.status === 403)).toHaveLength(5);
    expect(await countRows("SELECT count(*) AS n FROM presets WHERE user_id = ?", id)).toBe(MAX_PRESETS);
  });
});

describe("/account lists presets with delete", () => {
  it("Pro sees its presets and deletes one with the form; Free sees the plan message", async () => {
    const { id, cookie, token } = accounts.Pro!;
    const save = await api("/presets", token, { method: "POST", body: { ...preset, name: "Account page" } });
    const { preset: saved } = createPresetResponseSchema.parse(await save.json());
    const page = await (await get("/account", { cookie })).text();
    expect(page).toContain("Account page");
    const res = await post("/account", { intent: "deletePreset", presetId: saved.id }, { cookie });
    expect(res.status).toBe(200);
    expect(await countRows("SELECT count(*) AS n FROM presets WHERE id = ?", saved.id)).toBe(0);
    expect(await countRows("SELECT count(*) AS n FROM presets WHERE user_id = ?", id)).toBeGreaterThan(0);

    const free = await (await get("/account", { cookie: accounts.Free!.cookie })).text();
    expect(free).toContain("Custom presets are part of the Advanced plan.");
    const refused = await post(
      "/account",
      { intent: "deletePreset", presetId: crypto.randomUUID() },
      { cookie: accounts.Free!.cookie },
    );
    expect(refused.status).toBe(403);
  });
});
