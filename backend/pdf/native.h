// The native PDFium shim of native.c.
typedef struct {
  float a, b, c, d, e, f;
} agentero_matrix;

typedef struct {
  float left, top, right, bottom;
} agentero_rectf;

const char *agentero_pdfium_load(const char *path);
void *agentero_open(const char *path, unsigned long *err);
void agentero_close(void *doc);
int agentero_page_count(void *doc);
unsigned long agentero_page_label(void *doc, int index, void *buffer, unsigned long buflen);
unsigned long agentero_meta_text(void *doc, const char *tag, void *buffer, unsigned long buflen);
void *agentero_text_page(void *doc, int index, void **page);
void agentero_close_text_page(void *page, void *textPage);
int agentero_count_chars(void *textPage);
int agentero_get_text(void *textPage, int count, unsigned short *result);
void agentero_char_size(void *textPage, int index, double *size, agentero_matrix *m, int *hasMatrix);
unsigned int agentero_unicode(void *textPage, int index);
void *agentero_first_child(void *doc, void *bookmark);
void *agentero_next_sibling(void *doc, void *bookmark);
unsigned long agentero_bookmark_title(void *bookmark, void *buffer, unsigned long buflen);
int agentero_bookmark_page(void *doc, void *bookmark);
int agentero_loose_box(void *textPage, int index, agentero_rectf *rect);
void agentero_page_size(void *page, float *width, float *height);
int agentero_page_to_device(void *page, int sizeX, int sizeY, double x, double y, int *dx, int *dy);
int agentero_char_index(void *textPage, int textIndex);
int agentero_char_props(void *textPage, int max, unsigned int *unicode, double *size, int *weight, unsigned char *vertical);
int agentero_layout(void *textPage, int max, int head, int every, unsigned int *unicode, double *size, int *weight, unsigned char *vertical);
int agentero_page_size_at(void *doc, int index, float *width, float *height);
int agentero_render(void *doc, int index, int startX, int startY, int sizeX, int sizeY, int width, int height,
                    int flags, void *buf, int stride);
