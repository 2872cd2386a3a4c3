/* The "data_validation" object of results.json: the totals and one entry per key block found
 * in error, with the device, the offset, the class and the bytes expected and found (hex; ".."
 * for the bytes of the header that cannot be known beforehand). */
#include "parts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static json_t *hex(const uint8_t *b, size_t len, bool is_header)
{
	static const char digits[] = "0123456789abcdef";
	char text[2 * DV_HEADER_BYTES + 1];

	for (size_t i = 0; i < len; i++) {
		bool is_known = !is_header || dv_header_byte_is_known((unsigned int)i);

		text[2 * i] = is_known ? digits[b[i] >> 4] : '.';
		text[2 * i + 1] = is_known ? digits[b[i] & 15] : '.';
	}
	text[2 * len] = '\0';
	return json_string(text);
}

static json_t *object(json_t *root)
{
	json_t *dv = json_object_get(root, "data_validation");

	if (dv)
		return dv;
	dv = json_pack("{s:I, s:I, s:b, s:b, s:[]}", "key_blocks_validated", (json_int_t)0,
		       "key_blocks_in_error", (json_int_t)0, "is_journal", 0, "is_recovered", 0,
		       "errors");
	if (dv && json_object_set_new(root, "data_validation", dv))
		return NULL;
	return dv;
}

static json_t *error_doc(const struct rep_dv_error *e)
{
	const struct dv_mismatch *m = e->m;
	char tod[64], name[DV_NAME_BYTES + 1];
	json_t *o;
	int n = DV_NAME_BYTES;

	while (n > 0 && m->found_name[n - 1] == ' ')
		n--;
	snprintf(name, sizeof(name), "%.*s", n, m->found_name);
	rep_doc_time(e->tod_ns, tod);
	o = json_pack("{s:o, s:o, s:s, s:I, s:I, s:I, s:I, s:s, s:s, s:s, s:i, s:i, s:i}", "sd",
		      rep_json_text(e->sd), "lun", e->lun ? rep_json_text(e->lun) : json_null(),
		      "op", e->op, "io_offset_bytes", (json_int_t)e->lba_bytes, "io_size_bytes",
		      (json_int_t)e->size_bytes, "block_offset_bytes",
		      (json_int_t)m->block_offset_bytes, "block_bytes", (json_int_t)m->block_bytes,
		      "class", dv_class_id(m->cls), "class_name", dv_class_name(m->cls), "meaning",
		      dv_class_meaning(m->cls), "sector", (int)m->sector_idx, "bad_sectors",
		      (int)m->nr_bad_sectors, "sectors", (int)m->nr_sectors);
	if (!o)
		return NULL;
	if (json_object_set_new(o, "expected_key", json_integer(m->expected_key)) ||
	    json_object_set_new(o, "found_key", json_integer(m->found_key)) ||
	    json_object_set_new(o, "found_offset_bytes",
				json_integer((json_int_t)m->found_offset_bytes)) ||
	    json_object_set_new(o, "found_sd", rep_json_text(name)) ||
	    json_object_set_new(o, "found_owner", json_integer(m->found_owner)) ||
	    json_object_set_new(o, "found_write_time_ms",
				json_integer((json_int_t)m->found_tod_ms)) ||
	    json_object_set_new(o, "bits", json_integer(m->nr_bits)) ||
	    json_object_set_new(o, "expected", hex(m->expected, DV_HEADER_BYTES, true)) ||
	    json_object_set_new(o, "found", hex(m->found, DV_HEADER_BYTES, false)) ||
	    json_object_set_new(o, "line_offset", json_integer(m->line_offset)) ||
	    json_object_set_new(o, "expected_line",
				m->line_offset ? hex(m->expected_line, DV_LINE_BYTES, false)
					       : json_null()) ||
	    json_object_set_new(o, "found_line",
				m->line_offset ? hex(m->found_line, DV_LINE_BYTES, false)
					       : json_null()) ||
	    json_object_set_new(o, "time", json_string(tod))) {
		json_decref(o);
		return NULL;
	}
	/* -vt: the block's last good read or write; null when none in this execution */
	if (e->has_good_time &&
	    json_object_set_new(o, "last_good_time_ms",
				e->good_tod_ms ? json_integer((json_int_t)e->good_tod_ms)
					       : json_null())) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int rep_doc_dv_error(json_t *root, const struct rep_dv_error *e)
{
	json_t *dv = object(root);
	json_t *o = dv ? error_doc(e) : NULL;

	if (!o || json_array_append_new(json_object_get(dv, "errors"), o))
		return -ENOMEM;
	return 0;
}

int rep_doc_dv_summary(json_t *root, const struct rep_dv_summary *s)
{
	json_t *dv = object(root);

	if (!dv ||
	    json_object_set_new(dv, "key_blocks_validated",
				json_integer((json_int_t)s->nr_validated)) ||
	    json_object_set_new(dv, "key_blocks_in_error",
				json_integer((json_int_t)s->nr_errors)) ||
	    json_object_set_new(dv, "is_journal", json_boolean(s->is_journal)) ||
	    json_object_set_new(dv, "is_recovered", json_boolean(s->is_recovered)))
		return -ENOMEM;
	return 0;
}
