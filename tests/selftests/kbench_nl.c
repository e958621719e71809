// SPDX-License-Identifier: GPL-2.0
/*
 * Raw generic netlink helpers shared by the kbench selftests and fuzzer.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "kbench_nl.h"

static unsigned char rxbuf[KNL_BUF_SIZE] __attribute__((aligned(8)));

int knl_open(struct knl_sock *s, int protocol)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t salen = sizeof(sa);
	int one = 1, rcvbuf = 4 << 20;

	memset(s, 0, sizeof(*s));
	s->wake_fd = -1;
	s->timeout_ms = KNL_TIMEOUT_MS_DEFAULT;
	s->seq = (uint32_t)time(NULL);
	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
	if (s->fd < 0)
		return -errno;
	/* Extended acks: the message, the bad attribute's offset, missing attrs. */
	if (setsockopt(s->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)))
		goto out_close;
	setsockopt(s->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)))
		goto out_close;
	if (getsockname(s->fd, (struct sockaddr *)&sa, &salen))
		goto out_close;
	s->portid = sa.nl_pid;
	return 0;

out_close:
	one = -errno;
	close(s->fd);
	s->fd = -1;
	return one;
}

void knl_close(struct knl_sock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

void knl_req_init(struct knl_req *r, uint16_t type, uint16_t flags)
{
	memset(r->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	r->cap = sizeof(r->buf);
	r->depth = 0;
	r->overflow = false;
	r->nlh.nlmsg_len = NLMSG_HDRLEN;
	r->nlh.nlmsg_type = type;
	r->nlh.nlmsg_flags = flags;
}

void knl_req_genl(struct knl_req *r, uint16_t family, uint16_t flags,
		  uint8_t cmd, uint8_t version)
{
	struct genlmsghdr g = { .cmd = cmd, .version = version };

	knl_req_init(r, family, flags);
	knl_put_raw(r, &g, sizeof(g));
}

int knl_put_raw(struct knl_req *r, const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(r->nlh.nlmsg_len);

	if (off + NLMSG_ALIGN(len) > r->cap) {
		r->overflow = true;
		return -1;
	}
	memset(r->buf + off, 0, NLMSG_ALIGN(len));
	if (len)
		memcpy(r->buf + off, data, len);
	r->nlh.nlmsg_len = off + NLMSG_ALIGN(len);
	return off;
}

int knl_put(struct knl_req *r, uint16_t type, const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(r->nlh.nlmsg_len);
	struct nlattr *a;

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > r->cap ||
	    NLA_HDRLEN + len > 0xffff) {
		r->overflow = true;
		return -1;
	}
	a = (struct nlattr *)(r->buf + off);
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memset(r->buf + off + NLA_HDRLEN, 0, NLA_ALIGN(len));
	if (len)
		memcpy(r->buf + off + NLA_HDRLEN, data, len);
	r->nlh.nlmsg_len = off + NLA_HDRLEN + NLA_ALIGN(len);
	return off;
}

int knl_put_u32(struct knl_req *r, uint16_t type, uint32_t v)
{
	return knl_put(r, type, &v, sizeof(v));
}

int knl_put_u64(struct knl_req *r, uint16_t type, uint64_t v)
{
	return knl_put(r, type, &v, sizeof(v));
}

int knl_put_str(struct knl_req *r, uint16_t type, const char *s)
{
	return knl_put(r, type, s, strlen(s) + 1);
}

int knl_nest_start(struct knl_req *r, uint16_t type)
{
	int off = knl_put(r, type | NLA_F_NESTED, NULL, 0);

	if (off >= 0 && r->depth < (int)ARRAY_SIZE(r->nest))
		r->nest[r->depth++] = off;
	return off;
}

void knl_nest_end(struct knl_req *r)
{
	struct nlattr *a;

	if (!r->depth)
		return;
	a = (struct nlattr *)(r->buf + r->nest[--r->depth]);
	a->nla_len = r->nlh.nlmsg_len - r->nest[r->depth];
}

static int knl_sendto(int fd, struct knl_req *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	ssize_t n;

	n = sendto(fd, r->buf, r->nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa));
	if (n < 0)
		return -errno;
	if ((size_t)n != r->nlh.nlmsg_len)
		return -EMSGSIZE;
	return 0;
}

int knl_send(struct knl_sock *s, struct knl_req *r)
{
	r->nlh.nlmsg_seq = ++s->seq;
	r->nlh.nlmsg_pid = s->portid;
	return knl_sendto(s->fd, r);
}

static void parse_ext_ack(const struct nlmsghdr *nlh, size_t hlen,
			  struct knl_result *res)
{
	const struct nlattr *a;
	const char *attrs;
	int rem;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (NLMSG_HDRLEN + hlen > nlh->nlmsg_len)
		return;
	attrs = (const char *)nlh + NLMSG_HDRLEN + hlen;
	knl_for_each_attr(a, attrs, (int)(nlh->nlmsg_len - NLMSG_HDRLEN - hlen), rem) {
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			if (knl_get_str(a)) {
				res->has_msg = true;
				snprintf(res->msg, sizeof(res->msg), "%s",
					 knl_get_str(a));
			}
			break;
		case NLMSGERR_ATTR_OFFS:
			res->has_offs = knl_get_u32(a, &res->offs);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			res->has_miss_type = knl_get_u32(a, &res->miss_type);
			break;
		case NLMSGERR_ATTR_MISS_NEST:
			res->has_miss_nest = knl_get_u32(a, &res->miss_nest);
			break;
		}
	}
}

/* One final message: the ack/error of a do, or the end of a dump. */
void knl_parse_final(const struct nlmsghdr *nlh, struct knl_result *res)
{
	size_t hlen;

	res->done = true;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nlh);

		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
			res->bad_reply = true;
			return;
		}
		res->err = -e->error;
		hlen = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			hlen += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	} else {
		int e;

		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int))) {
			res->bad_reply = true;
			return;
		}
		memcpy(&e, NLMSG_DATA(nlh), sizeof(e));
		res->err = -e;
		hlen = sizeof(int);
	}
	parse_ext_ack(nlh, hlen, res);
}

int knl_recv_answer(struct knl_sock *s, uint32_t seq, knl_cb cb, void *arg,
		    struct knl_result *res)
{
	uint64_t deadline = kb_now_ns() + (uint64_t)s->timeout_ms * 1000000;
	bool stop_cb = false;

	memset(res, 0, sizeof(*res));
	while (!res->done) {
		struct pollfd p[2] = {
			{ .fd = s->fd, .events = POLLIN },
			{ .fd = s->wake_fd, .events = POLLIN },
		};
		uint64_t now = kb_now_ns();
		const struct nlmsghdr *nlh;
		ssize_t n;
		int left, err;

		if (now >= deadline) {
			res->timed_out = true;
			return -ETIMEDOUT;
		}
		n = poll(p, s->wake_fd >= 0 ? 2 : 1,
			 (int)((deadline - now) / 1000000) + 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		/* the sender failed: no answer will come */
		if (s->wake_fd >= 0 && (p[1].revents & POLLIN) &&
		    read(s->wake_fd, &err, sizeof(err)) == sizeof(err) && err)
			return err;
		if (!(p[0].revents & POLLIN))
			continue;
		n = recv(s->fd, rxbuf, sizeof(rxbuf), MSG_TRUNC | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0)
			return -errno;
		if ((size_t)n > sizeof(rxbuf)) {
			res->bad_reply = true;
			return -EMSGSIZE;
		}
		left = n;
		for (nlh = (struct nlmsghdr *)rxbuf; NLMSG_OK(nlh, left);
		     nlh = NLMSG_NEXT(nlh, left)) {
			if (!nlh->nlmsg_seq && nlh->nlmsg_type >= NLMSG_MIN_TYPE) {
				res->nntf++;
				if (s->ntf_cb)
					s->ntf_cb(nlh, s->ntf_arg);
				continue;
			}
			if (nlh->nlmsg_seq != seq)
				continue;	/* stale answer to an earlier request */
			if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
				res->dump_interrupted = true;
			if (nlh->nlmsg_type == NLMSG_ERROR ||
			    nlh->nlmsg_type == NLMSG_DONE) {
				knl_parse_final(nlh, res);
				break;
			}
			res->nreplies++;
			if (cb && !stop_cb && cb(nlh, arg))
				stop_cb = true;
		}
		if (left && !res->done)
			res->bad_reply = true;	/* trailing garbage */
	}
	return 0;
}

int knl_transact(struct knl_sock *s, struct knl_req *r, knl_cb cb, void *arg,
		 struct knl_result *res)
{
	int err;

	memset(res, 0, sizeof(*res));
	err = knl_send(s, r);
	if (err)
		return err;
	return knl_recv_answer(s, r->nlh.nlmsg_seq, cb, arg, res);
}

struct knl_sender {
	int fd;
	struct knl_req *req;
	int pipe[2];
};

static void *knl_sender_main(void *arg)
{
	struct knl_sender *k = arg;
	int err = knl_sendto(k->fd, k->req);

	if (write(k->pipe[1], &err, sizeof(err)) != sizeof(err))
		abort();	/* our own pipe: cannot fail */
	return NULL;
}

int knl_transact_threaded(struct knl_sock *s, struct knl_req *r, knl_cb cb,
			  void *arg, struct knl_result *res)
{
	struct knl_sender k = { .fd = s->fd, .req = r };
	pthread_t t;
	int err;

	memset(res, 0, sizeof(*res));
	r->nlh.nlmsg_seq = ++s->seq;
	r->nlh.nlmsg_pid = s->portid;
	if (pipe(k.pipe))
		return -errno;
	err = pthread_create(&t, NULL, knl_sender_main, &k);
	if (err) {
		close(k.pipe[0]);
		close(k.pipe[1]);
		return -err;
	}
	s->wake_fd = k.pipe[0];
	err = knl_recv_answer(s, r->nlh.nlmsg_seq, cb, arg, res);
	s->wake_fd = -1;
	pthread_join(t, NULL);
	close(k.pipe[0]);
	close(k.pipe[1]);
	return err;
}

int knl_parse(const void *data, int len, const struct nlattr **tb, int max)
{
	const struct nlattr *a;
	int rem;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	knl_for_each_attr(a, data, len, rem) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type <= max)
			tb[type] = a;
	}
	return rem ? -1 : 0;
}

const void *knl_genl_attrs(const struct nlmsghdr *nlh, int *len)
{
	*len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	if (*len < 0) {
		*len = 0;
		return NULL;
	}
	return (const char *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;
}

bool knl_get_u32(const struct nlattr *a, uint32_t *v)
{
	if (!a || knl_len(a) != 4)
		return false;
	memcpy(v, knl_data(a), 4);
	return true;
}

bool knl_get_u64(const struct nlattr *a, uint64_t *v)
{
	if (!a || knl_len(a) != 8)
		return false;
	memcpy(v, knl_data(a), 8);
	return true;
}

bool knl_get_s64(const struct nlattr *a, int64_t *v)
{
	return knl_get_u64(a, (uint64_t *)v);
}

const char *knl_get_str(const struct nlattr *a)
{
	const char *s;

	if (!a || knl_len(a) < 1)
		return NULL;
	s = knl_data(a);
	if (!memchr(s, '\0', knl_len(a)))
		return NULL;
	return s;
}

/* ---- generic netlink controller ---------------------------------------- */

static int family_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1], *a;
	struct knl_family *f = arg;
	const void *data;
	int len, rem;

	data = knl_genl_attrs(nlh, &len);
	if (knl_parse(data, len, tb, CTRL_ATTR_MAX))
		return 1;
	if (tb[CTRL_ATTR_FAMILY_ID] && knl_len(tb[CTRL_ATTR_FAMILY_ID]) == 2)
		memcpy(&f->id, knl_data(tb[CTRL_ATTR_FAMILY_ID]), 2);
	knl_get_u32(tb[CTRL_ATTR_VERSION], &f->version);
	knl_get_u32(tb[CTRL_ATTR_HDRSIZE], &f->hdrsize);
	knl_get_u32(tb[CTRL_ATTR_MAXATTR], &f->maxattr);
	if (tb[CTRL_ATTR_OPS]) {
		knl_for_each_attr(a, knl_data(tb[CTRL_ATTR_OPS]),
				  knl_len(tb[CTRL_ATTR_OPS]), rem) {
			const struct nlattr *op[CTRL_ATTR_OP_MAX + 1];

			if (knl_parse(knl_data(a), knl_len(a), op, CTRL_ATTR_OP_MAX))
				continue;
			if (f->nops < 64 && knl_get_u32(op[CTRL_ATTR_OP_ID],
							&f->ops[f->nops]))
				f->nops++;
		}
	}
	if (tb[CTRL_ATTR_MCAST_GROUPS]) {
		knl_for_each_attr(a, knl_data(tb[CTRL_ATTR_MCAST_GROUPS]),
				  knl_len(tb[CTRL_ATTR_MCAST_GROUPS]), rem) {
			const struct nlattr *g[CTRL_ATTR_MCAST_GRP_MAX + 1];

			if (knl_parse(knl_data(a), knl_len(a), g,
				      CTRL_ATTR_MCAST_GRP_MAX))
				continue;
			if (f->nmcgrps < 8 &&
			    knl_get_str(g[CTRL_ATTR_MCAST_GRP_NAME]) &&
			    knl_get_u32(g[CTRL_ATTR_MCAST_GRP_ID],
					&f->mcgrp_id[f->nmcgrps])) {
				snprintf(f->mcgrp_name[f->nmcgrps], 32, "%s",
					 knl_get_str(g[CTRL_ATTR_MCAST_GRP_NAME]));
				f->nmcgrps++;
			}
		}
	}
	return 0;
}

int knl_resolve(struct knl_sock *s, const char *name, struct knl_family *f,
		struct knl_result *res)
{
	static struct knl_req r;
	int err;

	memset(f, 0, sizeof(*f));
	knl_req_genl(&r, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK,
		     CTRL_CMD_GETFAMILY, 1);
	knl_put_str(&r, CTRL_ATTR_FAMILY_NAME, name);
	err = knl_transact(s, &r, family_cb, f, res);
	if (err)
		return err;
	if (res->err)
		return -res->err;
	return f->id ? 0 : -ENOENT;
}

/* ---- kbench ABI checks ---------------------------------------------------- */
/*
 * The attribute sets come from the spec: kbench_nl_tables.[ch], generated at
 * build time, hold ynl-gen-c's own user-mode policy tables.
 */

/* The payload length an attribute of policy type @pt must have; -1: any. */
static int pt_len(enum ynl_policy_type pt)
{
	switch (pt) {
	case YNL_PT_FLAG:
		return 0;
	case YNL_PT_U8:
		return 1;
	case YNL_PT_U16:
		return 2;
	case YNL_PT_U32:
		return 4;
	case YNL_PT_U64:
	case YNL_PT_BITFIELD32:
		return 8;
	default:
		return -1;
	}
}

static const char *check_attrs(const void *data, int len,
			       const struct ynl_policy_nest *nest, int depth)
{
	static char why[160];
	const struct ynl_policy_attr *p = NULL;
	const struct nlattr *a;
	const char *e;
	int rem;

	knl_for_each_attr(a, data, len, rem) {
		int type = a->nla_type & NLA_TYPE_MASK;
		int l = knl_len(a);

		if (type == 0)
			return "attribute type 0 (UNSPEC)";
		if (type > (int)nest->max_attr)
			continue;	/* appended later: allowed */
		p = &nest->table[type];
		switch (p->type) {
		case YNL_PT_NUL_STR:
			if (l < 1 || ((const char *)knl_data(a))[l - 1] != '\0' ||
			    strlen(knl_data(a)) + 1 != (size_t)l)
				goto bad;
			break;
		case YNL_PT_NEST:
			if (depth > 4 || !(a->nla_type & NLA_F_NESTED))
				goto bad;
			e = check_attrs(knl_data(a), l, p->nest, depth + 1);
			if (e)
				return e;
			break;
		case YNL_PT_UINT:
			if (l != 4 && l != 8)
				goto bad;
			break;
		case YNL_PT_REJECT:
			goto bad;
		case YNL_PT_BINARY:
		case YNL_PT_IGNORE:
			break;
		default:
			if (pt_len(p->type) != l)
				goto bad;
			break;
		}
	}
	if (rem)
		return "trailing bytes after the last attribute";
	return NULL;

bad:
	snprintf(why, sizeof(why), "attribute %d (%s) has a bad length %d or type",
		 a->nla_type & NLA_TYPE_MASK, p->name ? p->name : "?", knl_len(a));
	return why;
}

const char *kbench_check_msg(uint8_t cmd, const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[KBENCH_A_SAMPLES_MAX + 1];
	const void *data;
	const char *e;
	int len;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return "message shorter than the genl header";
	if (cmd > KBENCH_CMD_MAX || !kb_cmd_nest[cmd])
		return "reply to an unknown command";
	data = knl_genl_attrs(nlh, &len);
	e = check_attrs(data, len, kb_cmd_nest[cmd], 0);
	if (e || cmd != KBENCH_CMD_SAMPLES_GET)
		return e;
	/* The arrays' element types (binary sub-types) are not in the tables. */
	knl_parse(data, len, tb, KBENCH_A_SAMPLES_MAX);
	/* a packed page (PACKED asked): the test that asked checks it */
	if (tb[KBENCH_A_SAMPLES_ROUTINE] && tb[KBENCH_A_SAMPLES_FIRST] &&
	    tb[KBENCH_A_SAMPLES_NET_PACKED] && tb[KBENCH_A_SAMPLES_NET_WIDTH] &&
	    !tb[KBENCH_A_SAMPLES_NET] && !tb[KBENCH_A_SAMPLES_FLAGS])
		return NULL;
	if (!tb[KBENCH_A_SAMPLES_ROUTINE] || !tb[KBENCH_A_SAMPLES_FIRST] ||
	    !tb[KBENCH_A_SAMPLES_NET] || !tb[KBENCH_A_SAMPLES_FLAGS])
		return "samples message lacks ROUTINE, FIRST, NET or FLAGS";
	if (knl_len(tb[KBENCH_A_SAMPLES_NET]) % 8 ||
	    knl_len(tb[KBENCH_A_SAMPLES_FLAGS]) % 4)
		return "NET is not an s64 array or FLAGS not a u32 array";
	if (knl_len(tb[KBENCH_A_SAMPLES_NET]) / 8 !=
	    knl_len(tb[KBENCH_A_SAMPLES_FLAGS]) / 4)
		return "NET and FLAGS arrays differ in length";
	return NULL;
}

const struct kb_req *kb_req_find(uint8_t cmd, bool dump)
{
	int i;

	for (i = 0; i < KB_NREQS; i++)
		if (kb_reqs[i].cmd == cmd && kb_reqs[i].dump == dump)
			return &kb_reqs[i];
	return NULL;
}

/*
 * The attributes of @nest into @has/@v (integers; s64 as bits) by the
 * spec's @table (@max its last type); its string @str_type into @str.
 */
static void fill_nest(const struct nlattr *nest, const struct ynl_policy_nest *pol,
		      int max, bool *has, uint64_t *v, int str_type, char *str,
		      size_t str_size)
{
	const struct nlattr *a;
	int rem;

	knl_for_each_attr(a, knl_data(nest), knl_len(nest), rem) {
		int type = a->nla_type & NLA_TYPE_MASK;
		uint32_t v32;

		if (type > max)
			continue;
		if (type == str_type && knl_get_str(a)) {
			snprintf(str, str_size, "%s", knl_get_str(a));
			has[type] = true;
		} else if (pol->table[type].type == YNL_PT_U32) {
			if (knl_get_u32(a, &v32)) {
				v[type] = v32;
				has[type] = true;
			}
		} else if (pol->table[type].type == YNL_PT_U64) {
			has[type] = knl_get_u64(a, &v[type]);
		}
	}
}

static void fill_result(struct kb_result *r, const struct nlattr *nest)
{
	const struct nlattr *a;
	int rem;

	memset(r, 0, sizeof(*r));
	knl_for_each_attr(a, knl_data(nest), knl_len(nest), rem) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type > KBENCH_A_RESULT_MAX)
			continue;
		if (type == KBENCH_A_RESULT_EVENT) {
			struct kb_event_sum *e = &r->ev[r->nevents];

			if (r->nevents == KBENCH_EVENTS_MAX)
				continue;
			r->nevents++;
			fill_nest(a, &kbench_event_summary_nest,
				  KBENCH_A_EVENT_SUMMARY_MAX, e->has, e->v,
				  KBENCH_A_EVENT_SUMMARY_NAME, e->name,
				  sizeof(e->name));
		} else if (type == KBENCH_A_RESULT_ROUTINE) {
			if (knl_get_str(a)) {
				snprintf(r->routine, sizeof(r->routine), "%s",
					 knl_get_str(a));
				r->has[type] = true;
			}
		} else if (kbench_result_nest.table[type].type == YNL_PT_U32) {
			uint32_t v;

			if (knl_get_u32(a, &v)) {
				r->v[type] = v;
				r->has[type] = true;
			}
		} else if (kbench_result_nest.table[type].type == YNL_PT_U64) {
			r->has[type] = knl_get_u64(a, &r->v[type]);
		}
	}
}

/* @name as a key: letters, digits, '_', '-', '.'; any other sign '_' */
static void ktap_key(const char *name, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", name);
	for (i = 0; buf[i]; i++)
		if (!isalnum((unsigned char)buf[i]) && buf[i] != '_' &&
		    buf[i] != '-' && buf[i] != '.')
			buf[i] = '_';
}

/* A milli-unit value as a decimal: -1234 -> "-1.234" */
static void milli(uint64_t bits, char *buf, size_t len)
{
	int64_t v = (int64_t)bits;
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;

	snprintf(buf, len, "%s%llu.%03llu", v < 0 ? "-" : "",
		 (unsigned long long)(m / 1000), (unsigned long long)(m % 1000));
}

/*
 * Every figure of the results a RUN reply brought (@from on), as KTAP
 * diagnostic lines, so that a CI farm that keeps only the log keeps the
 * numbers too (the keys of kbenchctl export --format lkp):
 *   # kbench.ROUTINE[.ARG].median_cycles_per_iter: 7.000
 * (ticks for a counter that is not the TSC), the minimum, the corrected
 * median, and per hardware event EVENT.median_per_iter.
 */
bool kb_ktap_figures = true;

static void ktap_figures(const struct kb_run *run, int from)
{
	const char *unit = strcmp(run->counter, "tsc") ? "ticks" : "cycles";
	char key[KBENCH_NAME_MAX + 64], ev[KBENCH_NAME_MAX + 2], v[32];
	int i, e;

	if (!kb_ktap_figures)
		return;
	for (i = from; i < run->nresults; i++) {
		const struct kb_result *r = &run->result[i];

		if (!r->routine[0] || !r->has[KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI] ||
		    !r->has[KBENCH_A_RESULT_VALID] || !r->v[KBENCH_A_RESULT_VALID])
			continue;
		ktap_key(r->routine, key, sizeof(key));
		if (r->has[KBENCH_A_RESULT_ARG])
			snprintf(key + strlen(key), sizeof(key) - strlen(key),
				 ".%llu", (unsigned long long)r->v[KBENCH_A_RESULT_ARG]);
		milli(r->v[KBENCH_A_RESULT_PER_ITER_MEDIAN_MILLI], v, sizeof(v));
		printf("# kbench.%s.median_%s_per_iter: %s\n", key, unit, v);
		if (r->has[KBENCH_A_RESULT_PER_ITER_MIN_MILLI]) {
			milli(r->v[KBENCH_A_RESULT_PER_ITER_MIN_MILLI], v, sizeof(v));
			printf("# kbench.%s.min_%s_per_iter: %s\n", key, unit, v);
		}
		if (r->has[KBENCH_A_RESULT_CORR_MEDIAN_MILLI]) {
			milli(r->v[KBENCH_A_RESULT_CORR_MEDIAN_MILLI], v, sizeof(v));
			printf("# kbench.%s.corrected_median_%s_per_iter: %s\n",
			       key, unit, v);
		}
		printf("# kbench.%s.samples: %llu\n", key,
		       (unsigned long long)r->v[KBENCH_A_RESULT_VALID]);
		for (e = 0; e < r->nevents; e++) {
			const struct kb_event_sum *s = &r->ev[e];

			if (!s->has[KBENCH_A_EVENT_SUMMARY_PER_ITER_MEDIAN_MILLI])
				continue;
			ktap_key(s->name, ev, sizeof(ev));
			milli(s->v[KBENCH_A_EVENT_SUMMARY_PER_ITER_MEDIAN_MILLI],
			      v, sizeof(v));
			printf("# kbench.%s.%s.median_per_iter: %s\n", key, ev, v);
		}
	}
	fflush(stdout);
}

int kb_run_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct kb_run *run = arg;
	const struct nlattr *a;
	const void *data;
	int len, rem, from = run->nresults;

	run->nmsgs++;
	if (!run->bad)
		run->bad = kbench_check_msg(KBENCH_CMD_RUN, nlh);
	data = knl_genl_attrs(nlh, &len);
	knl_for_each_attr(a, data, len, rem) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type > KBENCH_A_RUN_MAX)
			continue;
		switch (kbench_run_nest.table[type].type) {
		case YNL_PT_U32: {
			uint32_t v;

			if (knl_get_u32(a, &v)) {
				run->v[type] = v;
				run->has[type] = true;
			}
			break;
		}
		case YNL_PT_U64:
			run->has[type] = knl_get_u64(a, &run->v[type]);
			break;
		case YNL_PT_NUL_STR:
			if (type == KBENCH_A_RUN_COUNTER && knl_get_str(a)) {
				snprintf(run->counter, sizeof(run->counter),
					 "%s", knl_get_str(a));
				run->has[type] = true;
			}
			break;
		case YNL_PT_NEST:
			if (type == KBENCH_A_RUN_OVERHEAD) {
				fill_result(&run->overhead, a);
				run->has_overhead = true;
			} else if (type == KBENCH_A_RUN_EVENT_INFO) {
				struct kb_event_info *e;

				if (run->nevents == KBENCH_EVENTS_MAX) {
					run->bad = "more EVENT_INFO nests than events allowed";
					break;
				}
				e = &run->event[run->nevents++];
				fill_nest(a, &kbench_event_nest, KBENCH_A_EVENT_MAX,
					  e->has, e->v, KBENCH_A_EVENT_NAME,
					  e->name, sizeof(e->name));
				fill_nest(a, &kbench_event_nest, KBENCH_A_EVENT_MAX,
					  e->has, e->v, KBENCH_A_EVENT_PMU,
					  e->pmu, sizeof(e->pmu));
			} else if (run->nresults < KB_RESULTS_MAX) {
				fill_result(&run->result[run->nresults++], a);
			} else {
				run->bad = "more RESULT nests than routines allowed";
			}
			break;
		default:
			break;
		}
	}
	ktap_figures(run, from);
	return 0;
}

static void fill_env(struct kb_info *info, const struct nlattr *nest)
{
	const struct nlattr *a;
	int rem;

	knl_for_each_attr(a, knl_data(nest), knl_len(nest), rem) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type > KBENCH_A_ENV_MAX)
			continue;
		if (kbench_environment_nest.table[type].type == YNL_PT_U32)
			info->env_has[type] = knl_get_u32(a, &info->env[type]);
		else if (type == KBENCH_A_ENV_HYPERVISOR_VENDOR && knl_get_str(a))
			snprintf(info->hypervisor_vendor,
				 sizeof(info->hypervisor_vendor), "%s",
				 knl_get_str(a));
	}
}

int kb_info_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[KBENCH_A_INFO_MAX + 1];
	struct kb_info *info = arg;
	const void *data;
	int len, i;

	info->nmsgs++;
	if (!info->bad)
		info->bad = kbench_check_msg(KBENCH_CMD_INFO, nlh);
	data = knl_genl_attrs(nlh, &len);
	knl_parse(data, len, tb, KBENCH_A_INFO_MAX);
	for (i = 1; i <= KBENCH_A_INFO_MAX; i++) {
		const char *s;
		uint32_t v32;

		if (!tb[i])
			continue;
		switch (kbench_info_nest.table[i].type) {
		case YNL_PT_U32:
			if (knl_get_u32(tb[i], &v32)) {
				info->v[i] = v32;
				info->has[i] = true;
			}
			break;
		case YNL_PT_U64:
			info->has[i] = knl_get_u64(tb[i], &info->v[i]);
			break;
		case YNL_PT_NUL_STR:
			s = knl_get_str(tb[i]);
			if (!s)
				break;
			info->has[i] = true;
			if (i == KBENCH_A_INFO_VERSION)
				snprintf(info->version, sizeof(info->version), "%s", s);
			else if (i == KBENCH_A_INFO_ARCH)
				snprintf(info->arch, sizeof(info->arch), "%s", s);
			else if (i == KBENCH_A_INFO_COUNTER)
				snprintf(info->counter, sizeof(info->counter), "%s", s);
			else if (i == KBENCH_A_INFO_KERNEL)
				snprintf(info->kernel, sizeof(info->kernel), "%s", s);
			break;
		case YNL_PT_NEST:
			info->has[i] = true;
			if (i == KBENCH_A_INFO_ENVIRONMENT)
				fill_env(info, tb[i]);
			break;
		default:
			break;
		}
	}
	return 0;
}

void kb_build_run(struct knl_req *r, uint16_t family, struct kb_run_args *a)
{
	int i;

	knl_req_genl(r, family, NLM_F_REQUEST | NLM_F_ACK, KBENCH_CMD_RUN,
		     KBENCH_GENL_VERSION);
	a->offs_cpu = -1;
	a->offs_samples = -1;
	a->offs_iterations = -1;
	for (i = 0; i < a->nroutines && i < 8; i++)
		a->offs_routine[i] = knl_put_str(r, KBENCH_A_RUN_ROUTINE,
						 a->routines[i]);
	if (a->has_cpu)
		a->offs_cpu = knl_put_u32(r, KBENCH_A_RUN_CPU, a->cpu);
	if (a->samples)
		a->offs_samples = knl_put_u32(r, KBENCH_A_RUN_SAMPLES, a->samples);
	if (a->iterations)
		a->offs_iterations = knl_put_u32(r, KBENCH_A_RUN_ITERATIONS,
						 a->iterations);
	if (a->warmup)
		knl_put_u32(r, KBENCH_A_RUN_WARMUP, a->warmup);
	for (i = 0; i < a->nevents && i < 16; i++)
		a->offs_event[i] = knl_put_str(r, KBENCH_A_RUN_EVENT,
					       a->events[i]);
	for (i = 0; i < a->nargs && i < 8; i++)
		a->offs_arg[i] = knl_put_u64(r, KBENCH_A_RUN_ARG, a->args[i]);
}

/* ---- utilities ------------------------------------------------------------ */

int kb_cmd_output(const char *cmd, char *out, size_t size)
{
	size_t n = 0, got;
	FILE *f = popen(cmd, "r");
	int rc;

	if (!f || !size)
		return -1;
	while ((got = fread(out + n, 1, size - 1 - n, f)) > 0)
		n += got;
	out[n] = '\0';
	rc = pclose(f);
	return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

bool kb_json_number(const char *obj, const char *end, const char *key,
		    double *v)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(obj, pat);
	if (!p || (end && p > end))
		return false;
	p += strlen(pat);
	while (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t')
		p++;
	return sscanf(p, "%lf", v) == 1;
}

bool kb_icount(void)
{
	const char *exact = getenv("KBENCH_EXACT");
	char buf[4096];
	size_t n;
	FILE *f;

	if (exact && *exact)
		return !strcmp(exact, "1");
	f = fopen("/proc/cmdline", "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, "kbench_icount=1");
}

int kb_possible_cpus(void)
{
	char buf[256], *p;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int last = -1;

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	/* "0-1" or "0,2-3": the highest number is the last one listed. */
	for (p = buf; *p; p++) {
		if (*p >= '0' && *p <= '9') {
			last = (int)strtol(p, &p, 10);
			p--;
		}
	}
	return last + 1;
}

uint64_t kb_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

bool kb_run_thread_exists(int cpu)
{
	char want[32], path[300], comm[32];
	struct dirent *d;
	bool found = false;
	size_t len;
	DIR *dir;
	FILE *f;

	/* "kbench/CPU\n", or the prefix "kbench/" for any CPU */
	if (cpu < 0)
		snprintf(want, sizeof(want), "kbench/");
	else
		snprintf(want, sizeof(want), "kbench/%d\n", cpu);
	len = cpu < 0 ? strlen(want) : sizeof(want);
	dir = opendir("/proc");
	if (!dir)
		return false;
	while (!found && (d = readdir(dir))) {
		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		found = fgets(comm, sizeof(comm), f) &&
			!strncmp(comm, want, len);
		fclose(f);
	}
	closedir(dir);
	return found;
}

bool kb_kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

int kb_drop_privileges(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (setgroups(0, NULL))
		return -errno;
	if (setresgid(65534, 65534, 65534))
		return -errno;
	if (setresuid(65534, 65534, 65534))
		return -errno;
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

/* The directory of the running test binary, with a trailing '/'. */
static const char *kb_exe_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return "./";
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	return dir;
}

const char *kb_module_path(const char *name)
{
	static char path[PATH_MAX + 64];
	const char *moddir = getenv("KBENCH_MODDIR");

	if (moddir && *moddir) {
		snprintf(path, sizeof(path), "%s/%s.ko", moddir, name);
		return path;
	}
	snprintf(path, sizeof(path), "%smodules/%s.ko", kb_exe_dir(), name);
	if (!access(path, R_OK))
		return path;
	snprintf(path, sizeof(path), "/lib/kbench/%s.ko", name);
	return path;
}

const char *kb_kbenchctl(void)
{
	static char path[PATH_MAX + 16];
	const char *ctl = getenv("KBENCHCTL");

	if (ctl && *ctl)
		return ctl;
	snprintf(path, sizeof(path), "%skbenchctl", kb_exe_dir());
	if (!access(path, X_OK))
		return path;
	return "/usr/bin/kbenchctl";
}

bool kb_builtin(void)
{
	char line[256];
	bool loaded = false;
	FILE *f;

	if (access("/sys/module/kbench", F_OK))
		return false;
	f = fopen("/proc/modules", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "kbench ", 7))
			loaded = true;
	fclose(f);
	return !loaded;
}
