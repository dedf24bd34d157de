import { describe, expect, it } from "vitest";
import { pageWindow, showingText, userList } from "./admin";

/** Table-driven: the Users list as a shared link says it, and the pager around it. */
describe("the Users list query, value by value", () => {
  const parse = (search: string) => userList.parse(new URLSearchParams(search));
  it.each([
    ["", { sort: "full_name", dir: "asc", page: 1 }],
    ["sort=credits&dir=desc", { sort: "credits", dir: "desc" }],
    ["sort=password_hash", { sort: "full_name" }], // only the listed columns sort
    ["status=Banned&plan=Pro&role=admin", { status: "Banned", plan: "Pro", role: "admin" }],
    ["status=banned&plan=Plugin&role=owner", { status: undefined, plan: undefined, role: undefined }],
    ["min=10&max=5", { min: 10, max: 5 }],
    ["min=-1&max=1.5", { min: undefined, max: undefined }],
    ["page=0", { page: 1 }],
    ["page=abc", { page: 1 }],
    ["q=%20%20ann%20", { q: "ann" }],
  ])("?%s reads as %o", (search, expected) => {
    expect(parse(search)).toMatchObject(expected);
  });
});

describe("the pager", () => {
  it.each([
    [1, 0, []],
    [1, 1, [1]],
    [1, 5, [1, 2, 3]],
    [3, 5, [2, 3, 4]],
    [5, 5, [3, 4, 5]],
    [9, 5, [3, 4, 5]], // past the end: the last pages
  ])("page %d of %d shows %o", (page, pages, expected) => {
    expect(pageWindow(page, pages)).toEqual(expected);
  });

  it.each([
    [1, 10, 0, "Showing 0 to 0 of 0 results"],
    [1, 10, 7, "Showing 1 to 7 of 7 results"],
    [2, 10, 25, "Showing 11 to 20 of 25 results"],
    [3, 10, 25, "Showing 21 to 25 of 25 results"],
  ])("page %d by %d of %d: “%s”", (page, size, total, text) => {
    expect(showingText(page, size, total)).toBe(text);
  });
});
