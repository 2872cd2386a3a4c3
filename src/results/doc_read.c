/* Reading results documents: values by path, loading a results.json with its schema checked,
 * and replacing a file so that no reader ever sees it half written. */
#include "parts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const json_t *rep_doc_get(const json_t *o, const char *path)
{
	char key[128];

	while (o && *path) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);
		char *end;

		if (len >= sizeof(key))
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		if (json_is_array(o)) {
			unsigned long idx = strtoul(key, &end, 10);

			o = *end || end == key ? NULL : json_array_get(o, idx);
		} else {
			o = json_object_get(o, key);
		}
		path += len + (slash != NULL);
	}
	return o;
}

double rep_doc_num(const json_t *o, const char *path)
{
	const json_t *v = rep_doc_get(o, path);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *rep_doc_str(const json_t *o, const char *path, const char *dflt)
{
	const json_t *v = rep_doc_get(o, path);

	return json_is_string(v) ? json_string_value(v) : dflt;
}

/* Whether path names a flatfile.html (any directory). */
static bool is_flatfile(const char *path)
{
	const char *slash = strrchr(path, '/');

	return !strcmp(slash ? slash + 1 : path, "flatfile.html");
}

int rep_doc_load(const char *path, json_t **out, char *err, size_t errlen)
{
	FILE *f;
	json_error_t jerr;
	json_t *doc;
	int ret;

	if (is_flatfile(path))
		return rep_doc_load_flat(path, out, err, errlen);
	f = fopen(path, "r");
	*out = NULL;
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(-ret));
		return ret;
	}
	doc = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
	fclose(f);
	if (!doc) {
		snprintf(err, errlen, "%s:%d:%d: not JSON: %s", path, jerr.line, jerr.column,
			 jerr.text);
		return -EINVAL;
	}
	if ((strcmp(rep_doc_str(doc, "schema", ""), REP_DOC_SCHEMA) &&
	     strcmp(rep_doc_str(doc, "schema", ""), REP_DOC_SCHEMA_V2) &&
	     strcmp(rep_doc_str(doc, "schema", ""), REP_DOC_SCHEMA_V1)) ||
	    !json_is_array(json_object_get(doc, "runs")) ||
	    !json_is_array(json_object_get(doc, "curves"))) {
		snprintf(err, errlen, "%s: not an %s document", path, REP_DOC_SCHEMA);
		json_decref(doc);
		return -EINVAL;
	}
	*out = doc;
	return 0;
}

/* Whether path is something other than a regular file (a symbolic link, /dev/null, a FIFO,
 * /dev/stdout): written in place, as a rename would replace the link or the device node
 * itself with a regular file. */
static bool is_special(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && !S_ISREG(st.st_mode);
}

int rep_replace_file(const char *path, int (*write)(FILE *f, const void *arg), const void *arg)
{
	char tmp[4112];
	bool in_place = is_special(path);
	FILE *f;
	int ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(in_place ? path : tmp, "w");
	if (!f)
		return -errno;
	errno = 0;
	ret = write(f, arg);
	if (!ret && (fflush(f) || ferror(f)))
		ret = errno ? -errno : -EIO;
	ret = rep_write_cause(f, ret);
	if (fclose(f) && !ret)
		ret = -errno;
	if (in_place)
		return ret;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

const char *rep_doc_engine(const json_t *doc, const char *dflt)
{
	const json_t *e = rep_doc_get(doc, "execution/engine");

	if (json_is_string(e)) /* ioramp-results/1 */
		return json_string_value(e);
	return rep_doc_str(e, "spec", dflt);
}

bool rep_doc_model_text(const json_t *doc, char *buf, size_t len)
{
	const json_t *m = rep_doc_get(doc, "execution/engine/model");
	struct rep_model rm;

	if (!json_is_object(m))
		return false;
	rm = (struct rep_model){
		.spec = rep_doc_engine(doc, "model"),
		.preset = rep_doc_str(m, "preset", ""),
		.units = (uint32_t)rep_doc_num(m, "units"),
		.read_us = rep_doc_num(m, "read_us"),
		.write_us = rep_doc_num(m, "write_us"),
		.read_mbps = rep_doc_num(m, "read_mbps"),
		.write_mbps = rep_doc_num(m, "write_mbps"),
		.dist = rep_doc_str(m, "dist", "exp"),
		.cache_mb = rep_doc_num(m, "cache_mb"),
		.cache_us = rep_doc_num(m, "cache_us"),
	};
	rep_model_text(&rm, buf, len);
	return true;
}
