/*
 * Small YAML helpers for the check's own files (reproducers, baselines):
 * an emitter that builds text in memory through libyaml, so quoting and
 * block scalars are always valid YAML, and read access to a document
 * loaded with yaml_parser_load. Errors carry file:line:col.
 */
#include "diff/diff.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

struct ydoc_writer {
   yaml_emitter_t em;
   char *buf;
   size_t len, cap;
   bool ok;
};

static int
ydw_write(void *data, unsigned char *buf, size_t size)
{
   struct ydoc_writer *w = data;
   VEC_RESERVE(w->buf, w->cap, w->len + size + 1);
   memcpy(w->buf + w->len, buf, size);
   w->len += size;
   w->buf[w->len] = 0;
   return 1;
}

/* Emits an event its initializer made; `made` false (libyaml refused the
 * event, e.g. a scalar that is not UTF-8) fails the writer instead: the
 * event was left uninitialized and must never reach the emitter. */
static void
ydw_emit(struct ydoc_writer *w, int made, yaml_event_t *ev)
{
   if (!made) {
      w->ok = false;
      return;
   }
   if (w->ok && !yaml_emitter_emit(&w->em, ev))
      w->ok = false;
   else if (!w->ok)
      yaml_event_delete(ev);
}

struct ydoc_writer *
ydoc_writer_new(void)
{
   struct ydoc_writer *w = xcalloc(1, sizeof(*w));
   w->ok = yaml_emitter_initialize(&w->em) != 0;
   if (!w->ok)
      return w;
   yaml_emitter_set_output(&w->em, ydw_write, w);
   yaml_emitter_set_unicode(&w->em, 1);
   yaml_emitter_set_width(&w->em, 100);
   yaml_event_t ev;
   ydw_emit(w, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING), &ev);
   ydw_emit(w, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1), &ev);
   return w;
}

void
ydoc_writer_one_line(struct ydoc_writer *w)
{
   if (w->ok)
      yaml_emitter_set_width(&w->em, 1 << 20); /* after stream start: taken as is */
}

void
ydoc_map(struct ydoc_writer *w, bool begin, bool flow)
{
   yaml_event_t ev;
   int made =
       begin ? yaml_mapping_start_event_initialize(
                   &ev, NULL, NULL, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE)
             : yaml_mapping_end_event_initialize(&ev);
   ydw_emit(w, made, &ev);
}

void
ydoc_seq(struct ydoc_writer *w, bool begin, bool flow)
{
   yaml_event_t ev;
   int made =
       begin ? yaml_sequence_start_event_initialize(
                   &ev, NULL, NULL, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE)
             : yaml_sequence_end_event_initialize(&ev);
   ydw_emit(w, made, &ev);
}

static void
scalar(struct ydoc_writer *w, const char *s, yaml_scalar_style_t style)
{
   yaml_event_t ev;
   size_t n = strlen(s);
   int made = n <= INT_MAX &&
              yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)n, 1, 1, style);
   ydw_emit(w, made, &ev);
}

void
ydoc_str(struct ydoc_writer *w, const char *s)
{
   scalar(w, s ? s : "", YAML_ANY_SCALAR_STYLE);
}

/* A string that must read back as a string (never as a number or bool). */
void
ydoc_qstr(struct ydoc_writer *w, const char *s)
{
   scalar(w, s ? s : "", YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

void
ydoc_literal(struct ydoc_writer *w, const char *s)
{
   scalar(w, s ? s : "", YAML_LITERAL_SCALAR_STYLE);
}

void
ydoc_strf(struct ydoc_writer *w, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *s = xvasprintf(fmt, ap);
   va_end(ap);
   scalar(w, s, YAML_PLAIN_SCALAR_STYLE);
   free(s);
}

void
ydoc_kv(struct ydoc_writer *w, const char *key, const char *value)
{
   ydoc_str(w, key);
   ydoc_str(w, value);
}

char *
ydoc_writer_finish(struct ydoc_writer *w)
{
   yaml_event_t ev;
   ydw_emit(w, yaml_document_end_event_initialize(&ev, 1), &ev);
   ydw_emit(w, yaml_stream_end_event_initialize(&ev), &ev);
   char *text = w->ok ? w->buf : NULL;
   if (!w->ok)
      free(w->buf);
   yaml_emitter_delete(&w->em);
   free(w);
   return text;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

struct ydoc {
   yaml_document_t doc;
   char *file;
};

struct ydoc *
ydoc_load(const char *text, size_t len, const char *file, struct diag_list *d)
{
   yaml_parser_t p;
   struct ydoc *y = xcalloc(1, sizeof(*y));
   y->file = xstrdup(file);
   yaml_parser_initialize(&p);
   yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
   bool ok = yaml_parser_load(&p, &y->doc) != 0;
   if (!ok)
      diag_add(d, DIAG_ERROR, file, (int)p.problem_mark.line + 1, (int)p.problem_mark.column + 1,
               NULL, "YAML: %s", p.problem ? p.problem : "syntax error");
   yaml_parser_delete(&p);
   if (ok && !yaml_document_get_root_node(&y->doc)) {
      diag_add(d, DIAG_ERROR, file, 1, 1, NULL, "empty document");
      yaml_document_delete(&y->doc);
      ok = false;
   }
   if (!ok) {
      free(y->file);
      free(y);
      return NULL;
   }
   return y;
}

void
ydoc_free(struct ydoc *y)
{
   if (!y)
      return;
   yaml_document_delete(&y->doc);
   free(y->file);
   free(y);
}

int
ydoc_root(struct ydoc *y)
{
   return y->doc.nodes.start ? 1 : 0;
}

static yaml_node_t *
node(struct ydoc *y, int n)
{
   return n > 0 ? yaml_document_get_node(&y->doc, n) : NULL;
}

void
ydoc_error(struct ydoc *y, int n, struct diag_list *d, const char *fmt, ...)
{
   yaml_node_t *x = node(y, n);
   va_list ap;
   va_start(ap, fmt);
   diag_vadd(d, DIAG_ERROR, y->file, x ? (int)x->start_mark.line + 1 : 0,
             x ? (int)x->start_mark.column + 1 : 0, NULL, fmt, ap);
   va_end(ap);
}

bool
ydoc_is_map(struct ydoc *y, int n)
{
   yaml_node_t *x = node(y, n);
   return x && x->type == YAML_MAPPING_NODE;
}

/* The scalar text of node n, or NULL if it is not a scalar. */
const char *
ydoc_scalar(struct ydoc *y, int n)
{
   yaml_node_t *x = node(y, n);
   return x && x->type == YAML_SCALAR_NODE ? (const char *)x->data.scalar.value : NULL;
}

/* The value node of key in mapping n; 0 if absent. */
int
ydoc_get(struct ydoc *y, int n, const char *key)
{
   yaml_node_t *x = node(y, n);
   if (!x || x->type != YAML_MAPPING_NODE)
      return 0;
   for (yaml_node_pair_t *p = x->data.mapping.pairs.start; p < x->data.mapping.pairs.top; p++) {
      const char *k = ydoc_scalar(y, p->key);
      if (k && !strcmp(k, key))
         return p->value;
   }
   return 0;
}

/* Items of sequence n: count, and the i-th node. */
unsigned
ydoc_len(struct ydoc *y, int n)
{
   yaml_node_t *x = node(y, n);
   if (!x)
      return 0;
   if (x->type == YAML_SEQUENCE_NODE)
      return (unsigned)(x->data.sequence.items.top - x->data.sequence.items.start);
   if (x->type == YAML_MAPPING_NODE)
      return (unsigned)(x->data.mapping.pairs.top - x->data.mapping.pairs.start);
   return 0;
}

int
ydoc_item(struct ydoc *y, int n, unsigned i)
{
   yaml_node_t *x = node(y, n);
   return x && x->type == YAML_SEQUENCE_NODE ? x->data.sequence.items.start[i] : 0;
}

/* Pair i of mapping n: key and value nodes. */
void
ydoc_pair(struct ydoc *y, int n, unsigned i, int *key, int *value)
{
   yaml_node_t *x = node(y, n);
   *key = *value = 0;
   if (x && x->type == YAML_MAPPING_NODE) {
      *key = x->data.mapping.pairs.start[i].key;
      *value = x->data.mapping.pairs.start[i].value;
   }
}

bool
ydoc_u64(struct ydoc *y, int n, uint64_t *out)
{
   const char *s = ydoc_scalar(y, n);
   if (!s || !*s || *s == '-')
      return false;
   char *end;
   unsigned long long v = strtoull(s, &end, 0);
   if (*end)
      return false;
   *out = v;
   return true;
}

bool
ydoc_bool(struct ydoc *y, int n, bool *out)
{
   const char *s = ydoc_scalar(y, n);
   if (s && (!strcmp(s, "true") || !strcmp(s, "false"))) {
      *out = s[0] == 't';
      return true;
   }
   return false;
}
