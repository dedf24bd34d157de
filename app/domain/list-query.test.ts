import { describe, expect, it } from "vitest";
import { auditList } from "./admin-audit";
import { clipList, userList } from "./admin";

const params = (s: string) => new URLSearchParams(s);

describe("list queries (the admin list kit)", () => {
  it("an empty URL means the defaults, and the defaults write an empty URL", () => {
    expect(userList.parse(params(""))).toEqual(userList.defaults);
    expect(userList.defaults).toMatchObject({ sort: "full_name", dir: "asc", page: 1 });
    expect(userList.href("/admin/users", userList.defaults)).toBe("/admin/users");
  });

  it("what a URL says survives the round trip to a link and back", () => {
    const query = userList.parse(params("q=ann&plan=Basic&min=5&sort=credits&dir=desc&page=3"));
    expect(query).toMatchObject({ q: "ann", plan: "Basic", min: 5, sort: "credits", dir: "desc", page: 3 });
    expect(userList.parse(params(userList.search(query)))).toEqual(query);
  });

  it("changes replace, remove and add keys; values equal to a default leave the URL", () => {
    const query = userList.parse(params("q=ann&sort=credits&page=3"));
    expect(userList.search(query, { page: 1 })).toBe("q=ann&sort=credits");
    expect(userList.search(query, { q: undefined })).toBe("sort=credits&page=3");
    expect(userList.search(query, { sort: "full_name", dir: "asc" })).toBe("q=ann&page=3");
    // Keys outside the shape (the edit dialog) pass through.
    expect(userList.href("/admin/users", query, { edit: "u1" })).toBe("/admin/users?q=ann&sort=credits&page=3&edit=u1");
  });

  it("bad or empty values fall back instead of failing a shared link", () => {
    expect(userList.parse(params("sort=evil&dir=up&page=-2&plan=Gold&min=x&status=&q="))).toEqual(userList.defaults);
    expect(auditList.parse(params("action=DROP TABLE&from=yesterday&page=2"))).toEqual({
      ...auditList.defaults,
      page: 2,
    });
    expect(clipList.parse(params(`q=${"x".repeat(300)}`)).q).toBeUndefined();
  });

  it("a search is trimmed, and one of only spaces is no search", () => {
    expect(clipList.parse(params("q=%20%20cat%20")).q).toBe("cat");
    expect(clipList.parse(params("q=%20%20&page=2"))).toEqual({ q: undefined, page: 2 });
    expect(clipList.search(clipList.parse(params("q=%20%20&page=2")))).toBe("page=2");
  });
});
