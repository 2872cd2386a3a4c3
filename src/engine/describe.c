/* Describing a target before anything is written to it: kind, size, signatures, holders and
 * a device's model, for the confirmation `ioramp suite` asks before it writes to devices. */
#include "ioramp/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include "target.h"

/* The model of block device rdev from sysfs (a partition's disk has it), blanks trimmed. */
static void device_model(uint64_t rdev, char *buf, size_t len)
{
	static const char *const rel[] = { "device/model", "../device/model" };
	char path[128], line[128];

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]) && !buf[0]; i++) {
		FILE *f;
		size_t n;
		char *p = line;

		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major((dev_t)rdev),
			 minor((dev_t)rdev), rel[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		p += strspn(p, " \t");
		n = strlen(p);
		while (n && (p[n - 1] == '\n' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			p[--n] = '\0';
		snprintf(buf, len, "%s", p);
	}
}

int eng_target_describe(const char *path, struct eng_target_info *info, char *err, size_t errlen)
{
	struct eng_target t = ENG_TARGET_INIT;
	int ret;

	memset(info, 0, sizeof(*info));
	ret = eng_target_open(&t, path, O_RDONLY, err, errlen);
	if (ret)
		return ret;
	info->is_block = t.kind == ENG_TARGET_BLOCK;
	info->size_bytes = t.size_bytes;
	if (info->is_block) {
		ret = eng_target_probe_signature(&t, info->signature, sizeof(info->signature), err,
						 errlen);
		info->has_signature = ret > 0;
		if (ret >= 0)
			ret = eng_target_find_holder(&t, info->holder, sizeof(info->holder), err,
						     errlen);
		info->is_held = ret > 0;
		device_model(t.rdev, info->model, sizeof(info->model));
	}
	eng_target_close(&t);
	return ret < 0 ? ret : 0;
}
