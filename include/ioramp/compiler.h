/* Attribute macros shared by every module; the only place compiler-specific spellings live. */
#ifndef IORAMP_COMPILER_H
#define IORAMP_COMPILER_H

#define IORAMP_PRINTF(fmt_idx, args_idx) __attribute__((format(printf, fmt_idx, args_idx)))
#define IORAMP_UNUSED			 __attribute__((unused))
#define IORAMP_LIKELY(x)		 __builtin_expect(!!(x), 1)
#define IORAMP_UNLIKELY(x)		 __builtin_expect(!!(x), 0)
#define IORAMP_CACHELINE		 64
#define IORAMP_ARRAY_SIZE(a)		 (sizeof(a) / sizeof((a)[0]))

#endif /* IORAMP_COMPILER_H */
