// agentero_rank: cheap FTS5 ranking functions for Search.
//
// bm25() computes each phrase's idf with a pass over every row the phrase
// matches, at every execution of the statement, and looks up each matching
// row's length with one SQL statement per row. Search ranks papers first
// (papers_fts, thousands of rows for a common word) and then the pages of
// the best papers (one scoped statement per paper), so both costs add up.
//
// agentero_rank(papers_fts) ranks papers. papers_fts holds each page's
// distinct words once, so tf, a phrase's count in a row, is the number of
// the paper's pages it is on, and the row length says little worth a
// lookup:
//
//   score = -sum over phrases p of idf(p) * sat(tf(p))
//           - 2 * sum of idf(p) * sat(co)      (queries of several phrases)
//   sat(x) = x * (k1 + 1) / (x + k1)
//
// where co counts the instances of the rarest phrase that have every other
// phrase within PAGE_SPAN tokens: pages that hold all the words, roughly
// (a page's distinct words are a few hundred tokens), which is what the
// page stage then looks for.
//
// agentero_rank(pages_fts, b, w0, w1, ...) ranks pages with bm25's formula,
// but with the phrase weights w given (1 when missing) instead of idf, so
// no pass over the whole table is made; b is bm25's length normalisation
// (0 skips the length lookup).
//
// Both are negative like bm25(), so ORDER BY ascending puts the best first.
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

typedef struct {
  int nPhrase;
  double *idf;
} rankData;

static double sat(double x) { return x * (RANK_K1 + 1) / (x + RANK_K1); }

static int countHit(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
  (void)api;
  (void)fts;
  (*(sqlite3_int64 *)user)++;
  return SQLITE_OK;
}

// rankIdf computes each phrase's idf once per query, as bm25() does: a pass
// over the rows each phrase matches.
static int rankIdf(const Fts5ExtensionApi *api, Fts5Context *fts, rankData **out) {
  int n = api->xPhraseCount(fts);
  rankData *d = sqlite3_malloc64(sizeof(rankData) + (sqlite3_uint64)n * sizeof(double));
  if (d == 0) return SQLITE_NOMEM;
  d->nPhrase = n;
  d->idf = (double *)&d[1];
  sqlite3_int64 rows = 0;
  int rc = api->xRowCount(fts, &rows);
  for (int i = 0; rc == SQLITE_OK && i < n; i++) {
    sqlite3_int64 hits = 0;
    rc = api->xQueryPhrase(fts, i, &hits, countHit);
    double idf = log((rows - hits + 0.5) / (hits + 0.5));
    d->idf[i] = idf > 1e-6 ? idf : 1e-6;
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(d);
    return rc;
  }
  // On failure xSetAuxdata frees d itself.
  rc = api->xSetAuxdata(fts, d, sqlite3_free);
  if (rc == SQLITE_OK) *out = d;
  return rc;
}

// offsets collects up to MAX_CO_OFFSETS token offsets of phrase i.
static int offsets(const Fts5ExtensionApi *api, Fts5Context *fts, int i, int *out, int *n) {
  Fts5PhraseIter it;
  int col = 0, off = 0;
  *n = 0;
  int rc = api->xPhraseFirst(fts, i, &it, &col, &off);
  if (rc != SQLITE_OK) return rc;
  for (; col >= 0 && *n < MAX_CO_OFFSETS; api->xPhraseNext(fts, &it, &col, &off)) out[(*n)++] = off;
  return SQLITE_OK;
}

// near reports whether the sorted offset list offs (n long) holds one
// within PAGE_SPAN of x. *from is where the last call stopped: x grows from
// call to call, so no offset is passed over twice.
static int near(const int *offs, int n, int *from, int x) {
  while (*from < n && offs[*from] < x - PAGE_SPAN) (*from)++;
  return *from < n && offs[*from] <= x + PAGE_SPAN;
}

static void paperRank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx) {
  rankData *d = api->xGetAuxdata(fts, 0);
  if (d == 0) {
    int rc = rankIdf(api, fts, &d);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
  }
  int n = d->nPhrase;
  int co = n > 1 && n <= MAX_CO_PHRASES;
  static __thread int offs[MAX_CO_PHRASES][MAX_CO_OFFSETS];
  int counts[MAX_CO_PHRASES];
  double score = 0, idfSum = 0;
  int rarest = 0;
  for (int i = 0; i < n; i++) {
    int tf = 0;
    int rc;
    if (co) {
      rc = offsets(api, fts, i, offs[i], &counts[i]);
      tf = counts[i];
      if (tf < counts[rarest]) rarest = i;
    } else {
      Fts5PhraseIter it;
      int col = 0, off = 0;
      rc = api->xPhraseFirst(fts, i, &it, &col, &off);
      for (; rc == SQLITE_OK && col >= 0; api->xPhraseNext(fts, &it, &col, &off)) tf++;
    }
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    score += d->idf[i] * sat(tf);
    idfSum += d->idf[i];
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
    score += 2 * idfSum * sat(together);
  }
  sqlite3_result_double(ctx, -score);
}

static void pageRank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                     int nVal, sqlite3_value **vals) {
  double b = sqlite3_value_double(vals[0]);
  double norm = RANK_K1;
  int rc = SQLITE_OK;
  if (b > 0) {
    // The row's length costs a lookup in the docsize table: skipped for b 0.
    sqlite3_int64 rows = 0, total = 0;
    int len = 0;
    rc = api->xRowCount(fts, &rows);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &total);
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &len);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    double avg = rows > 0 && total > 0 ? (double)total / rows : 1;
    norm = RANK_K1 * (1 - b + b * len / avg);
  }
  double score = 0;
  int n = api->xPhraseCount(fts);
  for (int i = 0; i < n; i++) {
    Fts5PhraseIter it;
    int col = 0, off = 0, tf = 0;
    rc = api->xPhraseFirst(fts, i, &it, &col, &off);
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(ctx, rc);
      return;
    }
    for (; col >= 0; api->xPhraseNext(fts, &it, &col, &off)) tf++;
    double w = i + 1 < nVal ? sqlite3_value_double(vals[i + 1]) : 1;
    score += w * tf * (RANK_K1 + 1) / (tf + norm);
  }
  sqlite3_result_double(ctx, -score);
}

static void rankFunc(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx,
                     int nVal, sqlite3_value **vals) {
  if (nVal == 0) {
    paperRank(api, fts, ctx);
  } else {
    pageRank(api, fts, ctx, nVal, vals);
  }
}

// rankInit runs for every new connection (sqlite3_auto_extension) and
// registers agentero_rank with the connection's FTS5.
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
  return fts5->xCreateFunction(fts5, "agentero_rank", 0, rankFunc, 0);
}

int agenteroRegisterRank(void) {
  return sqlite3_auto_extension((void (*)(void))rankInit);
}
