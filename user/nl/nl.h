/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbenchctl netlink layer over libnl-genl-3.
 */
#ifndef KBENCHCTL_NL_H
#define KBENCHCTL_NL_H

#include <stdbool.h>
#include <stdint.h>

#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include <linux/kbench.h>

/* A notification that arrived while a request waited for its answer. */
typedef void (*kb_nl_ntf_cb)(struct nlmsghdr *nlh, void *arg);

struct kb_nl {
	struct nl_sock *sk;
	int family;
	int error;		/* -errno of the last request */
	char extack[256];	/* kernel's extack message, if any */
	uint32_t bad_attr_offset;	/* NLMSGERR_ATTR_OFFS, 0 if none */
	/*
	 * The ack's NLMSGERR_ATTR_COOKIE as a u64, if it had one: a RUN's
	 * ack says there the id of the run its answer is stored under
	 * (run-get), when a message of the answer could not be sent.
	 */
	bool has_cookie;
	uint64_t cookie;
	/*
	 * The RUN asks for its answer as notifications (its notify flag):
	 * the module acks it at once (the cookie: the run id), then sends
	 * RUN_NTF messages, which go to the request's callback as its
	 * replies, and a RUN_END_NTF with the run's error, which ends the
	 * request as an ack would.
	 */
	bool run_ntf;
	/* the request attribute at that offset: command, type, payload */
	uint8_t bad_cmd;
	uint16_t bad_attr;		/* 0: none */
	uint16_t bad_len;
	unsigned char bad_data[64];
	bool quiet;		/* do not print kernel errors */
	/*
	 * kb_nl_print_error() prints nothing: the caller decides after the
	 * request whether the error is one (a RUN read again by RUN_GET)
	 */
	bool hold_error;
	/*
	 * Notifications on this socket (PROGRESS_NTF, unicast to whoever
	 * sent the RUN) are never taken for an answer; with ntf_cb set they
	 * are passed to it, and do requests are sent from a thread so that
	 * they arrive while the request runs (a do op runs inside sendmsg()).
	 */
	kb_nl_ntf_cb ntf_cb;
	void *ntf_arg;
};

/* Per-message callback: attributes parsed into tb[] (policy-free). */
typedef int (*kb_nl_msg_cb)(struct nlattr **tb, struct nlmsghdr *nlh,
			    void *arg);

/*
 * Connect and resolve the family.  Returns 0; -ENOENT when the family is
 * missing (module not loaded; a message is printed); other -errno.
 */
int kb_nl_open(struct kb_nl *nl);
void kb_nl_close(struct kb_nl *nl);

/* A request message for @cmd (NLM_F_REQUEST [| NLM_F_DUMP]). */
struct nl_msg *kb_nl_msg(struct kb_nl *nl, uint8_t cmd, bool dump);

/*
 * Send @msg (consumed) and receive until the ack / end of dump; @cb is
 * called for each reply message with its attributes parsed up to @maxattr.
 * A kbench message whose command differs from the request's is a
 * notification: it goes to nl->ntf_cb (if set), never to @cb.
 * Returns 0 or -errno; on a kernel error prints it (kb_nl_print_error)
 * unless nl->quiet.
 */
int kb_nl_request(struct kb_nl *nl, struct nl_msg *msg, int maxattr,
		  kb_nl_msg_cb cb, void *arg);

/*
 * Parse the extended ack TLVs following @err inside @nlh (libnl 3.7 has no
 * helper).  Fills msg (or "") and *offs (0 if absent).  Exposed for tests.
 */
void kb_nl_parse_extack(const struct nlmsghdr *nlh, const struct nlmsgerr *err,
			char *msg, size_t len, uint32_t *offs);

/*
 * Print the error of a failed request: the kernel's extack message, after
 * the option or argument it names when it points at an attribute:
 * "kbenchctl: --cpu 1: another run is using this CPU".  Without extack, the
 * errno text.
 */
void kb_nl_print_error(const struct kb_nl *nl);

/*
 * What names a request attribute in the user's terms ("--cpu 7", "routine
 * 'foo'") for kb_nl_print_error(): the attribute's command, type and
 * payload in, the text in @buf, false when nothing names it.  The CLI
 * sets it (kb_opts_name_attr()); without one, errors are printed alone.
 */
typedef bool (*kb_nl_attr_namer)(uint8_t cmd, uint16_t attr, const void *data,
				 size_t len, char *buf, size_t size);
void kb_nl_set_attr_namer(kb_nl_attr_namer namer);

/* attribute accessors with defaults */
static inline uint8_t kb_u8(struct nlattr *a, uint8_t def)
{
	return a && nla_len(a) >= 1 ? nla_get_u8(a) : def;
}

static inline uint32_t kb_u32(struct nlattr *a, uint32_t def)
{
	return a ? nla_get_u32(a) : def;
}

static inline uint64_t kb_u64(struct nlattr *a, uint64_t def)
{
	return a ? nla_get_u64(a) : def;
}

static inline int64_t kb_s64(struct nlattr *a, int64_t def)
{
	return a ? (int64_t)nla_get_u64(a) : def;
}

static inline const char *kb_str(struct nlattr *a, const char *def)
{
	return a ? nla_get_string(a) : def;
}

#endif /* KBENCHCTL_NL_H */
