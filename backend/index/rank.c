// Ranking functions for the index's one query path (query.go).
//
// bm25() computes each phrase's idf with a pass over every row the phrase
// matches, at every execution of the statement, and looks up each matching
// row's length with one SQL statement per row. A query ranks papers first
// (papers_fts, thousands of rows for a common word) and then the pages of
// the best papers (one scoped statement per paper), so both costs would add
// up. Here the weights (each term's idf, computed once per query in Go and
// shared by every statement of the query) are arguments, and the length
// lookup is made only when asked for.
//
// agentero_paper_rank(papers_fts, b, avgPages, together, t, w0, w1, ...)
// ranks papers. papers_fts holds each page's distinct words once (column
// text), so tf, a phrase's count in a row, is the number of the paper's
// pages it is on; the paper's title and authors (column title); and its
// number of pages (column pages, stored):
//
//   score = sum over phrases p of w(p) * sat(tf(p))
//           + t * sum of w(p) * sat(title tf(p))
//           + 2 * sum of w(p) * sat(co)      (when together is 1)
//   sat(x) = x * (k1 + 1) / (x + norm),  norm = k1 * (1 - b + b * pages / avgPages)
//
// (b 0 spares reading pages; a title is short: its sat has norm k1) where
// co counts the instances of
// the rarest phrase that have every other phrase within PAGE_SPAN tokens:
// pages that hold all the words, roughly (a page's distinct words are a few
// hundred tokens).
//
// agentero_page_rank(fts, b, shape, w0, w1, ...) ranks pages (or text
// files) with bm25's formula and the weights given, and puts a tier before
// the score:
//
//   rank = TIER * tier + score
//   tier = 2 when the row holds the whole query as a phrase, 1 when it
//          holds every phrase (term), 0 otherwise
//
// shape (text, or NULL for no tier 2) gives, for each phrase, the place of
// its first word among the query's words: "2 3 6 9" for the terms of "how
// do nodes agree on a leader after a crash". A row holds the whole query
// when its terms stand at those distances from each other. Stop words are
// not in the expression (a phrase of common words makes FTS5 look through
// every row that holds them all, past the rowid range asked for), so they
// are not checked: a row with other small words in between counts too.
//
// agentero_field_rank(fts, b, ncols, c0, c1, ..., w0, w1, ...) ranks the
// rows of a table of fields (fields_fts: a paper's abstract, section
// titles and captions), each column weighed apart:
//
//   score = sum over phrases p of w(p) * sum over columns c of
//           c(c) * sat(tf(p, c)),  norm = k1 * (1 - b + b * len(c) / avglen(c))
//
// The ncols column weights come first, then a weight per phrase.
//
// All return the negated value, like bm25(), so that ORDER BY ascending
// puts the best first.
//
// The SQLite functions called here are those of the SQLite that
// github.com/mattn/go-sqlite3 compiles into the program; sqlite3.h only
// declares them.

#include <math.h>
#include <sqlite3.h>

#include "rank.h"

#define RANK_K1 1.2
#define PAGE_SPAN 300
#define MAX_CO_PHRASES 16
#define MAX_CO_OFFSETS 512
#define MAX_FIELDS 8

static double sat(double x, double norm) { return x * (RANK_K1 + 1) / (x + norm); }

// lengthNorm is bm25's k1 * (1 - b + b * len / avglen) for the current row;
// k1 alone when b is 0, which skips the row length lookup.
static int lengthNorm(const Fts5ExtensionApi *api, Fts5Context *fts, double b, double *norm) {
  *norm = RANK_K1;
  if (b <= 0) return SQLITE_OK;
  sqlite3_int64 rows = 0, total = 0;
  int len = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &total);
  if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &len);
  if (rc != SQLITE_OK) return rc;
  double avg = rows > 0 && total > 0 ? (double)total / rows : 1;
  *norm = RANK_K1 * (1 - b + b * len / avg);
  return SQLITE_OK;
}

// count counts the instances of phrase i in the current row.
static int count(const Fts5ExtensionApi *api, Fts5Context *fts, int i, int *n) {
  Fts5PhraseIter it;
  int col = 0, off = 0;
  *n = 0;
  int rc = api->xPhraseFirst(fts, i, &it, &col, &off);
  if (rc != SQLITE_OK) return rc;
  for (; col >= 0; api->xPhraseNext(fts, &it, &col, &off)) (*n)++;
  return SQLITE_OK;
}

// textCounts counts the instances of phrase i in the current row's text
// (column 0) and title (column 1), and collects up to max token offsets of
// those in the text into out (when out is not null).
static int textCounts(const Fts5ExtensionApi *api, Fts5Context *fts, int i, int *out, int max, int *tf, int *title) {
  Fts5PhraseIter it;
  int col = 0, off = 0;
  *tf = 0;
  *title = 0;
  int rc = api->xPhraseFirst(fts, i, &it, &col, &off);
  if (rc != SQLITE_OK) return rc;
  for (; col >= 0; api->xPhraseNext(fts, &it, &col, &off)) {
    if (col == 1) {
      (*title)++;
    } else if (out == 0 || *tf < max) {
      if (out != 0) out[*tf] = off;
      (*tf)++;
    }
  }
  return SQLITE_OK;
}

// near reports whether the sorted offset list offs (n long) holds one
// within PAGE_SPAN of x. *from is where the last call stopped: x grows from
// call to call, so no offset is passed over twice.
static int near(const int *offs, int n, int *from, int x) {
  while (*from < n && offs[*from] < x - PAGE_SPAN) (*from)++;
  return *from < n && offs[*from] <= x + PAGE_SPAN;
}

static double weight(int nVal, sqlite3_value **vals, int first, int i) {
  return first + i < nVal ? sqlite3_value_double(vals[first + i]) : 1;
}

static void paperRank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                      int nVal, sqlite3_value **vals) {
  if (nVal < 4) {
    sqlite3_result_error(ctx, "agentero_paper_rank: want (fts, b, avgPages, together, title weight, weights...)", -1);
    return;
  }
  double b = sqlite3_value_double(vals[0]), avg = sqlite3_value_double(vals[1]);
  double norm = RANK_K1;
  int rc = SQLITE_OK;
  if (b > 0 && avg > 0) {
    const char *text = 0;
    int size = 0;
    rc = api->xColumnText(fts, 2, &text, &size);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    int pages = 0;
    for (int i = 0; i < size && text[i] >= '0' && text[i] <= '9'; i++) pages = pages * 10 + (text[i] - '0');
    norm = RANK_K1 * (1 - b + b * pages / avg);
  }
  int n = api->xPhraseCount(fts);
  int co = sqlite3_value_int(vals[2]) && n > 1 && n <= MAX_CO_PHRASES;
  double t = sqlite3_value_double(vals[3]);
  static __thread int offs[MAX_CO_PHRASES][MAX_CO_OFFSETS];
  int counts[MAX_CO_PHRASES];
  double score = 0, wSum = 0;
  int rarest = 0;
  for (int i = 0; i < n; i++) {
    int tf = 0, title = 0;
    rc = textCounts(api, fts, i, co ? offs[i] : 0, MAX_CO_OFFSETS, &tf, &title);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    if (co) {
      counts[i] = tf;
      if (tf < counts[rarest]) rarest = i;
    }
    double w = weight(nVal, vals, 4, i);
    score += w * sat(tf, norm) + t * w * sat(title, RANK_K1);
    wSum += w;
  }
  if (co) {
    int together = 0;
    int from[MAX_CO_PHRASES] = {0};
    for (int k = 0; k < counts[rarest]; k++) {
      int all = 1;
      for (int i = 0; i < n && all; i++) {
        if (i != rarest) all = near(offs[i], counts[i], &from[i], offs[rarest][k]);
      }
      together += all;
    }
    score += 2 * wSum * sat(together, RANK_K1);
  }
  sqlite3_result_double(ctx, -score);
}

#define TIER 1e9

// shape is a parsed shape argument: the place of each phrase in the query.
typedef struct {
  int n;
  int pos[MAX_CO_PHRASES];
} shape;

// parseShape reads "2 3 6 9"; n is 0 (no tier 2) for NULL, an empty text,
// or more places than MAX_CO_PHRASES.
static void parseShape(const unsigned char *text, shape *sh) {
  sh->n = 0;
  if (text == 0) return;
  const unsigned char *c = text;
  while (*c) {
    while (*c == ' ') c++;
    if (*c == 0) break;
    if (sh->n == MAX_CO_PHRASES) {
      sh->n = 0;
      return;
    }
    int v = 0;
    while (*c >= '0' && *c <= '9') v = v * 10 + (*c++ - '0');
    sh->pos[sh->n++] = v;
    while (*c && *c != ' ') c++;
  }
}

// has reports whether the sorted offsets offs (n long) hold x.
static int has(const int *offs, int n, int x) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (offs[mid] < x) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < n && offs[lo] == x;
}

// inShape reports whether the row's phrases stand as sh says: some
// instance of the rarest with every other at its distance.
static int inShape(const shape *sh, int offs[][MAX_CO_OFFSETS], const int *counts) {
  int rarest = 0;
  for (int i = 1; i < sh->n; i++) {
    if (counts[i] < counts[rarest]) rarest = i;
  }
  for (int k = 0; k < counts[rarest]; k++) {
    int start = offs[rarest][k] - sh->pos[rarest];
    int all = 1;
    for (int i = 0; i < sh->n && all; i++) {
      if (i != rarest) all = has(offs[i], counts[i], start + sh->pos[i]);
    }
    if (all) return 1;
  }
  return 0;
}

static void pageRank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                     int nVal, sqlite3_value **vals) {
  if (nVal < 2) {
    sqlite3_result_error(ctx, "agentero_page_rank: want (fts, b, shape, weights...)", -1);
    return;
  }
  double norm;
  int rc = lengthNorm(api, fts, sqlite3_value_double(vals[0]), &norm);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  shape *sh = api->xGetAuxdata(fts, 0);
  if (sh == 0) {
    sh = sqlite3_malloc(sizeof(shape));
    if (sh == 0) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    parseShape(sqlite3_value_text(vals[1]), sh);
    // On failure xSetAuxdata frees sh itself.
    rc = api->xSetAuxdata(fts, sh, sqlite3_free);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
  }
  int n = api->xPhraseCount(fts);
  int whole = sh->n == n && n > 1;
  static __thread int offs[MAX_CO_PHRASES][MAX_CO_OFFSETS];
  int counts[MAX_CO_PHRASES];
  double score = 0;
  int all = 1;
  for (int i = 0; i < n; i++) {
    int tf = 0, title = 0;
    rc = whole ? textCounts(api, fts, i, offs[i], MAX_CO_OFFSETS, &tf, &title) : count(api, fts, i, &tf);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    if (whole) counts[i] = tf;
    if (tf == 0) all = 0;
    score += weight(nVal, vals, 2, i) * sat(tf, norm);
  }
  int tier = all ? 1 : 0;
  if (all && whole && inShape(sh, offs, counts)) tier = 2;
  sqlite3_result_double(ctx, -(TIER * tier + score));
}

static void fieldRank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                      int nVal, sqlite3_value **vals) {
  if (nVal < 2) {
    sqlite3_result_error(ctx, "agentero_field_rank: want (fts, b, ncols, column weights..., weights...)", -1);
    return;
  }
  double b = sqlite3_value_double(vals[0]);
  int ncols = sqlite3_value_int(vals[1]);
  if (ncols < 0 || ncols > MAX_FIELDS || ncols > api->xColumnCount(fts) || 2 + ncols > nVal) {
    sqlite3_result_error(ctx, "agentero_field_rank: bad number of columns", -1);
    return;
  }
  double norm[MAX_FIELDS];
  sqlite3_int64 rows = 0;
  int rc = api->xRowCount(fts, &rows);
  for (int c = 0; c < ncols && rc == SQLITE_OK; c++) {
    norm[c] = RANK_K1;
    if (b <= 0) continue;
    sqlite3_int64 total = 0;
    int len = 0;
    rc = api->xColumnTotalSize(fts, c, &total);
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, c, &len);
    double avg = rows > 0 && total > 0 ? (double)total / rows : 1;
    norm[c] = RANK_K1 * (1 - b + b * len / avg);
  }
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  int n = api->xPhraseCount(fts);
  double score = 0;
  for (int i = 0; i < n; i++) {
    int tf[MAX_FIELDS] = {0};
    Fts5PhraseIter it;
    int col = 0, off = 0;
    rc = api->xPhraseFirst(fts, i, &it, &col, &off);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    for (; col >= 0; api->xPhraseNext(fts, &it, &col, &off)) {
      if (col < ncols) tf[col]++;
    }
    double s = 0;
    for (int c = 0; c < ncols; c++) {
      if (tf[c] > 0) s += sqlite3_value_double(vals[2 + c]) * sat(tf[c], norm[c]);
    }
    score += weight(nVal, vals, 2 + ncols, i) * s;
  }
  sqlite3_result_double(ctx, -score);
}

// rankInit runs for every new connection (sqlite3_auto_extension) and
// registers the functions with the connection's FTS5.
static int rankInit(sqlite3 *db, char **errMsg, const void *apiRoutines) {
  (void)errMsg;
  (void)apiRoutines;
  fts5_api *fts5 = 0;
  sqlite3_stmt *stmt = 0;
  int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &stmt, 0);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_pointer(stmt, 1, (void *)&fts5, "fts5_api_ptr", 0);
  sqlite3_step(stmt);
  rc = sqlite3_finalize(stmt);
  if (rc != SQLITE_OK) return rc;
  if (fts5 == 0 || fts5->iVersion < 2) return SQLITE_ERROR;
  rc = fts5->xCreateFunction(fts5, "agentero_paper_rank", 0, paperRank, 0);
  if (rc != SQLITE_OK) return rc;
  rc = fts5->xCreateFunction(fts5, "agentero_page_rank", 0, pageRank, 0);
  if (rc != SQLITE_OK) return rc;
  return fts5->xCreateFunction(fts5, "agentero_field_rank", 0, fieldRank, 0);
}

int agenteroRegisterRank(void) {
  return sqlite3_auto_extension((void (*)(void))rankInit);
}
