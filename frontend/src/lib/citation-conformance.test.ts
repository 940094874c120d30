import { describe, expect, it } from "vitest";
import conformance from "../../../backend/citation/testdata/conformance.json?raw";
import { parseCitation } from "./citation";

// The backend's citation.Parse writes how it reads each URI of this table
// (backend/citation/conformance_test.go); the UI's parser must read them
// the same, so that a chip opens the page and quote the backend checked.
interface Row {
  uri: string;
  ok: boolean;
  path?: string;
  page?: number;
  quote?: string;
  url?: string;
  region?: number[];
}
const table: Row[] = JSON.parse(conformance);

describe("citation URIs read as the backend reads them", () => {
  it("the table is there", () => expect(table.length).toBeGreaterThan(10));
  for (const row of table) {
    it(row.uri, () => {
      const c = parseCitation(row.uri);
      if (!row.ok) {
        expect(c).toBeNull();
        return;
      }
      if (row.url) {
        expect(c).toEqual({ kind: "external", url: row.url });
        return;
      }
      // The UI opens a page-less citation on page 1; the backend says it names none (0).
      const want = { kind: "vault", path: row.path, page: row.page || 1, quote: row.quote ?? "" };
      if (row.region) {
        const [x, y, width, height] = row.region;
        expect(c).toEqual({ ...want, region: { x, y, width, height } });
      } else {
        expect(c).toEqual(want);
      }
    });
  }
});
