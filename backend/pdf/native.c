//go:build linux || darwin

// A native PDFium (libpdfium.so, loaded with dlopen) for the worker
// processes; see native.go. The declarations below are those of PDFium's
// public C API (fpdfview.h, fpdf_text.h, fpdf_doc.h) that the worker uses,
// written out so that no PDFium headers are needed to build.

#include <dlfcn.h>
#include <math.h>
#include <stddef.h>

#include "native.h"

static struct {
  void (*InitLibrary)(void);
  void *(*LoadDocument)(const char *path, const char *password);
  unsigned long (*GetLastError)(void);
  void (*CloseDocument)(void *doc);
  int (*GetPageCount)(void *doc);
  void *(*LoadPage)(void *doc, int index);
  void (*ClosePage)(void *page);
  unsigned long (*GetPageLabel)(void *doc, int index, void *buffer, unsigned long buflen);
  unsigned long (*GetMetaText)(void *doc, const char *tag, void *buffer, unsigned long buflen);
  void *(*TextLoadPage)(void *page);
  void (*TextClosePage)(void *textPage);
  int (*TextCountChars)(void *textPage);
  int (*TextGetText)(void *textPage, int start, int count, unsigned short *result);
  unsigned int (*TextGetUnicode)(void *textPage, int index);
  double (*TextGetFontSize)(void *textPage, int index);
  int (*TextGetMatrix)(void *textPage, int index, agentero_matrix *matrix);
  int (*TextGetLooseCharBox)(void *textPage, int index, agentero_rectf *rect);
  int (*TextCharIndex)(void *textPage, int textIndex);
  int (*TextGetFontWeight)(void *textPage, int index);
  float (*GetPageWidthF)(void *page);
  float (*GetPageHeightF)(void *page);
  int (*PageToDevice)(void *page, int startX, int startY, int sizeX, int sizeY, int rotate, double pageX,
                      double pageY, int *deviceX, int *deviceY);
  void *(*BookmarkFirstChild)(void *doc, void *bookmark);
  void *(*BookmarkNextSibling)(void *doc, void *bookmark);
  unsigned long (*BookmarkTitle)(void *bookmark, void *buffer, unsigned long buflen);
  void *(*BookmarkDest)(void *doc, void *bookmark);
  void *(*BookmarkAction)(void *bookmark);
  void *(*ActionDest)(void *doc, void *action);
  int (*DestPageIndex)(void *doc, void *dest);
  void *(*BitmapCreateEx)(int width, int height, int format, void *buffer, int stride);
  int (*BitmapFillRect)(void *bitmap, int left, int top, int width, int height, unsigned long color);
  void (*BitmapDestroy)(void *bitmap);
  void (*RenderPageBitmap)(void *bitmap, void *page, int startX, int startY, int sizeX, int sizeY, int rotate,
                           int flags);
} lib;

#define LOAD(field, name)                       \
  do {                                          \
    *(void **)(&lib.field) = dlsym(h, name);    \
    if (lib.field == NULL) return name;         \
  } while (0)

const char *agentero_pdfium_load(const char *path) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) return dlerror();
  LOAD(InitLibrary, "FPDF_InitLibrary");
  LOAD(LoadDocument, "FPDF_LoadDocument");
  LOAD(GetLastError, "FPDF_GetLastError");
  LOAD(CloseDocument, "FPDF_CloseDocument");
  LOAD(GetPageCount, "FPDF_GetPageCount");
  LOAD(LoadPage, "FPDF_LoadPage");
  LOAD(ClosePage, "FPDF_ClosePage");
  LOAD(GetPageLabel, "FPDF_GetPageLabel");
  LOAD(GetMetaText, "FPDF_GetMetaText");
  LOAD(TextLoadPage, "FPDFText_LoadPage");
  LOAD(TextClosePage, "FPDFText_ClosePage");
  LOAD(TextCountChars, "FPDFText_CountChars");
  LOAD(TextGetText, "FPDFText_GetText");
  LOAD(TextGetUnicode, "FPDFText_GetUnicode");
  LOAD(TextGetFontSize, "FPDFText_GetFontSize");
  LOAD(TextGetMatrix, "FPDFText_GetMatrix");
  LOAD(TextGetLooseCharBox, "FPDFText_GetLooseCharBox");
  LOAD(TextCharIndex, "FPDFText_GetCharIndexFromTextIndex");
  LOAD(TextGetFontWeight, "FPDFText_GetFontWeight");
  LOAD(GetPageWidthF, "FPDF_GetPageWidthF");
  LOAD(GetPageHeightF, "FPDF_GetPageHeightF");
  LOAD(PageToDevice, "FPDF_PageToDevice");
  LOAD(BookmarkFirstChild, "FPDFBookmark_GetFirstChild");
  LOAD(BookmarkNextSibling, "FPDFBookmark_GetNextSibling");
  LOAD(BookmarkTitle, "FPDFBookmark_GetTitle");
  LOAD(BookmarkDest, "FPDFBookmark_GetDest");
  LOAD(BookmarkAction, "FPDFBookmark_GetAction");
  LOAD(ActionDest, "FPDFAction_GetDest");
  LOAD(DestPageIndex, "FPDFDest_GetDestPageIndex");
  LOAD(BitmapCreateEx, "FPDFBitmap_CreateEx");
  LOAD(BitmapFillRect, "FPDFBitmap_FillRect");
  LOAD(BitmapDestroy, "FPDFBitmap_Destroy");
  LOAD(RenderPageBitmap, "FPDF_RenderPageBitmap");
  lib.InitLibrary();
  return NULL;
}

void *agentero_open(const char *path, unsigned long *err) {
  void *doc = lib.LoadDocument(path, NULL);
  *err = doc == NULL ? lib.GetLastError() : 0;
  return doc;
}

void agentero_close(void *doc) { lib.CloseDocument(doc); }
int agentero_page_count(void *doc) { return lib.GetPageCount(doc); }

unsigned long agentero_page_label(void *doc, int index, void *buffer, unsigned long buflen) {
  return lib.GetPageLabel(doc, index, buffer, buflen);
}

unsigned long agentero_meta_text(void *doc, const char *tag, void *buffer, unsigned long buflen) {
  return lib.GetMetaText(doc, tag, buffer, buflen);
}

void *agentero_text_page(void *doc, int index, void **page) {
  *page = lib.LoadPage(doc, index);
  if (*page == NULL) return NULL;
  void *tp = lib.TextLoadPage(*page);
  if (tp == NULL) lib.ClosePage(*page);
  return tp;
}

void agentero_close_text_page(void *page, void *textPage) {
  lib.TextClosePage(textPage);
  lib.ClosePage(page);
}

int agentero_count_chars(void *textPage) { return lib.TextCountChars(textPage); }

int agentero_get_text(void *textPage, int count, unsigned short *result) {
  return lib.TextGetText(textPage, 0, count, result);
}

void agentero_char_size(void *textPage, int index, double *size, agentero_matrix *m, int *hasMatrix) {
  *size = lib.TextGetFontSize(textPage, index);
  *hasMatrix = lib.TextGetMatrix(textPage, index, m);
}

unsigned int agentero_unicode(void *textPage, int index) { return lib.TextGetUnicode(textPage, index); }

static int unsized_char(unsigned int r) {
  return r == '\n' || r == '\r' || r == ' ' || r == '\t' || r == 0xA0 || r == 2;
}

static void char_props(void *textPage, int k, double *size, int *weight, unsigned char *vertical) {
  double fs = lib.TextGetFontSize(textPage, k);
  agentero_matrix m;
  *vertical = 0;
  if (lib.TextGetMatrix(textPage, k, &m)) {
    double scale = hypot(m.c, m.d);
    if (scale > 0) fs *= scale;
    *vertical = fabs(m.b) > fabs(m.a);
  }
  *size = fs;
  *weight = lib.TextGetFontWeight(textPage, k);
}

int agentero_char_props(void *textPage, int max, unsigned int *unicode, double *size, int *weight,
                        unsigned char *vertical) {
  int count = lib.TextCountChars(textPage);
  if (count > max) count = max;
  for (int k = 0; k < count; k++) {
    unsigned int r = lib.TextGetUnicode(textPage, k);
    unicode[k] = r;
    size[k] = 0;
    weight[k] = 0;
    vertical[k] = 0;
    if (unsized_char(r)) continue;
    char_props(textPage, k, &size[k], &weight[k], &vertical[k]);
  }
  return count;
}

int agentero_layout(void *textPage, int max, int head, int every, unsigned int *unicode, double *size, int *weight,
                    unsigned char *vertical) {
  int count = lib.TextCountChars(textPage);
  if (count > max) count = max;
  int seen = 0;  // characters that are not white space since the line began
  for (int k = 0; k < count; k++) {
    unsigned int r = lib.TextGetUnicode(textPage, k);
    unicode[k] = r;
    size[k] = -1;  // not looked at
    if (r == '\n' || r == '\r') {
      seen = 0;
      continue;
    }
    if (unsized_char(r)) continue;
    seen++;
    if (seen <= head || k % every == 0) char_props(textPage, k, &size[k], &weight[k], &vertical[k]);
  }
  return count;
}

int agentero_char_index(void *textPage, int textIndex) { return lib.TextCharIndex(textPage, textIndex); }

int agentero_loose_box(void *textPage, int index, agentero_rectf *rect) {
  return lib.TextGetLooseCharBox(textPage, index, rect);
}

void agentero_page_size(void *page, float *width, float *height) {
  *width = lib.GetPageWidthF(page);
  *height = lib.GetPageHeightF(page);
}

int agentero_page_to_device(void *page, int sizeX, int sizeY, double x, double y, int *dx, int *dy) {
  return lib.PageToDevice(page, 0, 0, sizeX, sizeY, 0, x, y, dx, dy);
}

void *agentero_first_child(void *doc, void *bookmark) { return lib.BookmarkFirstChild(doc, bookmark); }
void *agentero_next_sibling(void *doc, void *bookmark) { return lib.BookmarkNextSibling(doc, bookmark); }

unsigned long agentero_bookmark_title(void *bookmark, void *buffer, unsigned long buflen) {
  return lib.BookmarkTitle(bookmark, buffer, buflen);
}

int agentero_bookmark_page(void *doc, void *bookmark) {
  void *dest = lib.BookmarkDest(doc, bookmark);
  if (dest == NULL) {
    void *action = lib.BookmarkAction(bookmark);
    if (action != NULL) dest = lib.ActionDest(doc, action);
  }
  if (dest == NULL) return -1;
  return lib.DestPageIndex(doc, dest);
}

int agentero_page_size_at(void *doc, int index, float *width, float *height) {
  void *page = lib.LoadPage(doc, index);
  if (page == NULL) return 0;
  *width = lib.GetPageWidthF(page);
  *height = lib.GetPageHeightF(page);
  lib.ClosePage(page);
  return 1;
}

// agentero_render draws page index, scaled to sizeX by sizeY pixels and
// moved by startX, startY, into buf: width by height BGRx pixels (format 3),
// stride bytes a row, on white. The bitmap only borrows buf for the call.
int agentero_render(void *doc, int index, int startX, int startY, int sizeX, int sizeY, int width, int height,
                    int flags, void *buf, int stride) {
  void *page = lib.LoadPage(doc, index);
  if (page == NULL) return 0;
  void *bitmap = lib.BitmapCreateEx(width, height, 3, buf, stride);
  if (bitmap == NULL) {
    lib.ClosePage(page);
    return 0;
  }
  lib.BitmapFillRect(bitmap, 0, 0, width, height, 0xFFFFFFFFUL);
  lib.RenderPageBitmap(bitmap, page, startX, startY, sizeX, sizeY, 0, flags);
  lib.BitmapDestroy(bitmap);
  lib.ClosePage(page);
  return 1;
}
