/*
 * Shader arguments, read one way by every command that takes several:
 * a file, a directory (its *.tgsi files in name order) or @LIST (a file
 * of paths, one a line; blank lines and '#' comments skipped). A
 * directory given to a command that reads files one by one would
 * otherwise be an unreadable "shader".
 */
#include "tools/tools.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int
cmp_path(const void *x, const void *y)
{
   return strcmp(*(char *const *)x, *(char *const *)y);
}

static void
add_owned(struct shader_args *s, char *path)
{
   VEC_PUSH(s->owned, s->nowned, s->owned_cap, path);
   VEC_PUSH(s->files, s->nfiles, s->files_cap, path);
}

static int
add_dir(struct shader_args *s, const char *dir)
{
   DIR *d = opendir(dir);
   if (!d)
      return usage_error("%s: %s", dir, strerror(errno));
   char **v = NULL;
   size_t n = 0, cap = 0, dl = strlen(dir);
   for (struct dirent *e; (e = readdir(d));) {
      size_t l = strlen(e->d_name);
      if (l > 5 && !strcmp(e->d_name + l - 5, ".tgsi"))
         VEC_PUSH(v, n, cap,
                  xasprintf("%.*s/%s", (int)(dl > 1 && dir[dl - 1] == '/' ? dl - 1 : dl), dir,
                            e->d_name));
   }
   closedir(d);
   if (n) /* qsort may not take NULL, even for no elements */
      qsort(v, n, sizeof(*v), cmp_path);
   for (size_t i = 0; i < n; i++)
      add_owned(s, v[i]);
   free(v);
   return n ? EXIT_OK : usage_error("%s: no *.tgsi files in this directory", dir);
}

static int
add_list(struct shader_args *s, const char *list)
{
   char *text, *err;
   size_t len;
   if (!read_file(list, &text, &len, &err)) {
      int rc = usage_error("%s", err);
      free(err);
      return rc;
   }
   int rc = EXIT_OK;
   for (char *line = text, *next; rc == EXIT_OK && line < text + len; line = next) {
      char *nl = memchr(line, '\n', (size_t)(text + len - line));
      next = nl ? nl + 1 : text + len;
      char *hash = memchr(line, '#', (size_t)(next - line));
      char *end = hash ? hash : next;
      while (line < end && (*line == ' ' || *line == '\t'))
         line++;
      while (end > line &&
             (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
         end--;
      if (end == line)
         continue;
      if (memchr(line, 0, (size_t)(end - line)))
         rc = usage_error("%s: a NUL byte in the list", list);
      else
         add_owned(s, xasprintf("%.*s", (int)(end - line), line));
   }
   free(text);
   return rc;
}

int
shader_args_add(struct shader_args *s, const char *arg)
{
   struct stat st;
   if (arg[0] == '@')
      return add_list(s, arg + 1);
   if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
      return add_dir(s, arg);
   VEC_PUSH(s->files, s->nfiles, s->files_cap, arg);
   return EXIT_OK;
}

void
shader_args_free(struct shader_args *s)
{
   free(s->files);
   for (unsigned i = 0; i < s->nowned; i++)
      free(s->owned[i]);
   free(s->owned);
   memset(s, 0, sizeof(*s));
}
