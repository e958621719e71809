// SPDX-License-Identifier: GPL-2.0
/*
 * kbenchctl netlink layer: socket set-up, requests, extack error reporting.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "base.h"
#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/*
 * The family is missing and we are root: run `modprobe kbench` once (where
 * the module is installed the kernel's own request_module for the family
 * alias may already have done it; modprobe also covers a kernel without
 * CONFIG_MODULES autoload and reports why loading failed).  Its stdout goes
 * to our stderr, so stdout stays clean for --json.  KBENCH_NO_AUTOLOAD=1
 * turns this off (shell completion, scripts that must not load anything).
 */
static bool kb_nl_autoload(void)
{
	const char *off = getenv("KBENCH_NO_AUTOLOAD");
	pid_t pid;
	int st;

	if (geteuid() != 0 || (off && *off && strcmp(off, "0")))
		return false;
	fprintf(stderr, "%s: loading the kbench module\n", prog);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execlp("modprobe", "modprobe", "kbench", (char *)NULL);
		/* root's PATH without /sbin */
		execl("/sbin/modprobe", "modprobe", "kbench", (char *)NULL);
		fprintf(stderr, "%s: cannot run modprobe\n", prog);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int kb_nl_open(struct kb_nl *nl)
{
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		fprintf(stderr, "%s: cannot allocate a netlink socket\n", prog);
		return -ENOMEM;
	}
	err = genl_connect(nl->sk);
	if (err < 0) {
		fprintf(stderr, "%s: cannot connect to generic netlink: %s\n",
			prog, nl_geterror(err));
		goto out_free_sock;
	}
	/*
	 * One 64 KiB receive buffer, no MSG_PEEK: libnl's default peeks
	 * each datagram first (two recvmsg per datagram) into a page-sized
	 * buffer, and the kernel then sizes dump skbs to one page.  With a
	 * large buffer a SAMPLES_GET dump arrives 32 KiB (about 2700
	 * samples) per recvmsg.  Kernel skbs are at most 32 KiB.
	 */
	nl_socket_set_msg_buf_size(nl->sk, 65536);
	nl_socket_disable_msg_peek(nl->sk);
	/* best effort: old kernels lack these and still work */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, KBENCH_GENL_NAME);
	if (nl->family < 0 && kb_nl_autoload())
		nl->family = genl_ctrl_resolve(nl->sk, KBENCH_GENL_NAME);
	if (nl->family < 0) {
		fprintf(stderr, "%s: kbench module not loaded (try: modprobe kbench)\n",
			prog);
		err = -ENOENT;
		goto out_free_sock;
	}
	return 0;

out_free_sock:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return err == -ENOENT ? -ENOENT : -EIO;
}

void kb_nl_close(struct kb_nl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->sk = NULL;
}

struct nl_msg *kb_nl_msg(struct kb_nl *nl, uint8_t cmd, bool dump)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
			 dump ? NLM_F_DUMP : 0, cmd, KBENCH_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * The extack TLVs from @p to @end: the message, the offset (@offs), a
 * u64 cookie (@nl's, when given).
 */
static void parse_tlvs(const unsigned char *p, const unsigned char *end,
		       char *msg, size_t len, uint32_t *offs, struct kb_nl *nl)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];

	if (p >= end || nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)p,
				  (int)(end - p), NULL) < 0)
		return;
	if (nl && tb[NLMSGERR_ATTR_COOKIE] &&
	    nla_len(tb[NLMSGERR_ATTR_COOKIE]) == sizeof(uint64_t)) {
		memcpy(&nl->cookie, nla_data(tb[NLMSGERR_ATTR_COOKIE]),
		       sizeof(nl->cookie));
		nl->has_cookie = true;
	}
	if (tb[NLMSGERR_ATTR_MSG] && len)
		snprintf(msg, len, "%.*s", nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (offs && tb[NLMSGERR_ATTR_OFFS] &&
	    nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4)
		*offs = nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
}

/* kb_nl_parse_extack(), and the cookie into @nl when it is not NULL */
static void parse_extack(const struct nlmsghdr *nlh, const struct nlmsgerr *err,
			 char *msg, size_t len, uint32_t *offs,
			 struct kb_nl *nl)
{
	size_t skip = sizeof(*err);

	if (len)
		msg[0] = '\0';
	*offs = 0;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	/* without NETLINK_CAP_ACK the request is echoed after the error */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		skip += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	parse_tlvs((const unsigned char *)err + NLMSG_ALIGN(skip),
		   (const unsigned char *)nlh + nlh->nlmsg_len, msg, len, offs,
		   nl);
}

void kb_nl_parse_extack(const struct nlmsghdr *nlh, const struct nlmsgerr *err,
			char *msg, size_t len, uint32_t *offs)
{
	parse_extack(nlh, err, msg, len, offs, NULL);
}

static kb_nl_attr_namer attr_namer;

void kb_nl_set_attr_namer(kb_nl_attr_namer namer)
{
	attr_namer = namer;
}

void kb_nl_print_error(const struct kb_nl *nl)
{
	const char *why = nl->extack[0] ? nl->extack : strerror(-nl->error);
	char what[96];

	if (nl->hold_error)
		return;
	if (nl->bad_attr && attr_namer &&
	    attr_namer(nl->bad_cmd, nl->bad_attr, nl->bad_data, nl->bad_len,
		       what, sizeof(what)))
		fprintf(stderr, "%s: %s: %s\n", prog, what, why);
	else
		fprintf(stderr, "%s: %s\n", prog, why);
}

/*
 * The request attribute NLMSGERR_ATTR_OFFS points at (an offset from the
 * request's nlmsghdr): keep its type and payload, so that the error can
 * name the option that set it.
 */
static void note_bad_attr(struct kb_nl *nl, struct nl_msg *msg)
{
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);
	const struct genlmsghdr *g = nlmsg_data(nlh);
	uint32_t off = nl->bad_attr_offset;
	const struct nlattr *a;

	if (off < NLMSG_HDRLEN + GENL_HDRLEN ||
	    (uint64_t)off + NLA_HDRLEN > nlh->nlmsg_len)
		return;
	a = (const struct nlattr *)((const unsigned char *)nlh + off);
	if (a->nla_len < NLA_HDRLEN || (uint64_t)off + a->nla_len > nlh->nlmsg_len)
		return;
	nl->bad_cmd = g->cmd;
	nl->bad_attr = (uint16_t)nla_type(a);
	nl->bad_len = (uint16_t)nla_len(a);
	if (nl->bad_len > sizeof(nl->bad_data))
		nl->bad_len = sizeof(nl->bad_data);
	memcpy(nl->bad_data, nla_data(a), nl->bad_len);
}

struct request {
	struct kb_nl *nl;
	int maxattr;
	kb_nl_msg_cb cb;
	void *arg;
	uint8_t cmd;	/* the request's command: replies carry the same */
	int done;	/* 1: in progress, 0: finished, < 0: -errno */
	/* nl->run_ntf: the ack came; the end came, with its error */
	bool acked, ended;
	int end_err;
};

static int valid_cb(struct nl_msg *msg, void *arg);

/*
 * The RUN_END_NTF of a RUN answered by notifications: the run's error,
 * its message and the offset of the request attribute it names; the
 * request ends once the ack has come too (a short run may end before
 * the ack is read).  One of another run (not the ack's cookie) is not
 * this request's.
 */
static void run_end_ntf(struct request *rq, struct nlmsghdr *nlh)
{
	struct nlattr *tb[KBENCH_A_RUN_MAX + 1];
	struct kb_nl *nl = rq->nl;

	if (genlmsg_parse(nlh, 0, tb, KBENCH_A_RUN_MAX, NULL) < 0)
		return;
	if (rq->acked && nl->has_cookie &&
	    kb_u32(tb[KBENCH_A_RUN_ID], 0) != nl->cookie)
		return;
	rq->ended = true;
	rq->end_err = tb[KBENCH_A_RUN_ERROR] ?
		      (int)nla_get_u32(tb[KBENCH_A_RUN_ERROR]) : -EPROTO;
	if (rq->end_err < 0) {
		snprintf(nl->extack, sizeof(nl->extack), "%s",
			 kb_str(tb[KBENCH_A_RUN_ERROR_MSG], ""));
		nl->bad_attr_offset = kb_u32(tb[KBENCH_A_RUN_ERROR_OFFS], 0);
	}
	if (rq->acked)
		rq->done = rq->end_err;
}

/* A RUN_NTF of a RUN answered by notifications: a reply of this request */
static void run_ntf(struct request *rq, struct nl_msg *msg)
{
	struct nlattr *tb[KBENCH_A_RUN_MAX + 1];
	struct kb_nl *nl = rq->nl;

	if (rq->acked && nl->has_cookie &&
	    (genlmsg_parse(nlmsg_hdr(msg), 0, tb, KBENCH_A_RUN_MAX, NULL) < 0 ||
	     kb_u32(tb[KBENCH_A_RUN_ID], 0) != nl->cookie))
		return;
	valid_cb(msg, rq);
}

/*
 * Every message, before libnl's sequence check: a kbench message whose
 * command is not the request's is a notification (PROGRESS_NTF, sent with
 * sequence number 0 to whoever asked for the run), never the answer.
 */
static int msg_in_cb(struct nl_msg *msg, void *arg)
{
	struct request *rq = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlh->nlmsg_type != rq->nl->family || !genlmsg_valid_hdr(nlh, 0) ||
	    genlmsg_hdr(nlh)->cmd == rq->cmd)
		return NL_OK;
	if (rq->nl->run_ntf && genlmsg_hdr(nlh)->cmd == KBENCH_CMD_RUN_NTF) {
		run_ntf(rq, msg);
		return rq->done > 0 ? NL_SKIP : NL_STOP;
	}
	if (rq->nl->run_ntf &&
	    genlmsg_hdr(nlh)->cmd == KBENCH_CMD_RUN_END_NTF) {
		run_end_ntf(rq, nlh);
		return rq->done > 0 ? NL_SKIP : NL_STOP;
	}
	if (rq->nl->ntf_cb)
		rq->nl->ntf_cb(nlh, rq->nl->ntf_arg);
	return NL_SKIP;
}

static int error_cb(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct request *rq = arg;
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)
		((const unsigned char *)err - NLMSG_HDRLEN);

	(void)nla;
	parse_extack(nlh, err, rq->nl->extack, sizeof(rq->nl->extack),
		     &rq->nl->bad_attr_offset, rq->nl);
	rq->done = err->error < 0 ? err->error : 0;
	return NL_STOP;
}

static int ack_cb(struct nl_msg *msg, void *arg)
{
	struct request *rq = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	uint32_t offs;

	if (!rq->nl->run_ntf) {
		rq->done = 0;
		return NL_STOP;
	}
	/* the run has started: its id is the cookie, its answer follows */
	parse_extack(nlh, nlmsg_data(nlh), NULL, 0, &offs, rq->nl);
	rq->acked = true;
	if (rq->ended)
		rq->done = rq->end_err;
	return NL_STOP;
}

/* NLMSG_DONE of a dump carries the dump's error (and extack) if it failed. */
static int finish_cb(struct nl_msg *msg, void *arg)
{
	struct request *rq = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	rq->done = 0;
	if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
		int e = *(int *)nlmsg_data(nlh);

		if (e < 0)
			rq->done = e;
		/* extack TLVs follow the int */
		if (e < 0 && (nlh->nlmsg_flags & NLM_F_ACK_TLVS))
			parse_tlvs((const unsigned char *)nlmsg_data(nlh) +
				   NLMSG_ALIGN(sizeof(int)),
				   (const unsigned char *)nlh + nlh->nlmsg_len,
				   rq->nl->extack, sizeof(rq->nl->extack), NULL,
				   NULL);
	}
	return NL_STOP;
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct request *rq = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[64];
	int maxattr = rq->maxattr < 63 ? rq->maxattr : 63;

	if (genlmsg_parse(nlh, 0, tb, maxattr, NULL) < 0)
		return NL_SKIP;
	if (rq->cb && rq->cb(tb, nlh, rq->arg) < 0) {
		rq->done = -EIO;
		return NL_STOP;
	}
	return NL_OK;
}

/*
 * A do request runs inside sendmsg(): to read the notifications it sends
 * meanwhile, the request is sent from this thread while the caller
 * receives.  The result goes through a pipe that the receiver polls.
 */
struct sender {
	struct nl_sock *sk;
	struct nl_msg *msg;
	pthread_t thread;
	int pipe[2];
};

static void *sender_main(void *arg)
{
	struct sender *s = arg;
	int err = nl_send(s->sk, s->msg);

	if (write(s->pipe[1], &err, sizeof(err)) != sizeof(err))
		abort();	/* a pipe of our own: cannot happen */
	return NULL;
}

static int sender_start(struct sender *s, struct nl_sock *sk,
			struct nl_msg *msg)
{
	s->sk = sk;
	s->msg = msg;
	/* seq and port now, in this thread: libnl's socket is not shared */
	nl_complete_msg(sk, msg);
	if (pipe(s->pipe))
		return -errno;
	if (pthread_create(&s->thread, NULL, sender_main, s)) {
		close(s->pipe[0]);
		close(s->pipe[1]);
		return -EAGAIN;
	}
	return 0;
}

static void sender_join(struct sender *s)
{
	pthread_join(s->thread, NULL);
	close(s->pipe[0]);
	close(s->pipe[1]);
}

/* Reset the last error; a NULL @msg (allocation failed) is -ENOMEM. */
static int request_begin(struct kb_nl *nl, struct nl_msg *msg)
{
	nl->error = 0;
	nl->extack[0] = '\0';
	nl->bad_attr_offset = 0;
	nl->bad_attr = 0;
	nl->has_cookie = false;
	nl->cookie = 0;
	if (msg)
		return 0;
	nl->error = -ENOMEM;
	kb_nl_print_error(nl);
	return -ENOMEM;
}

int kb_nl_request(struct kb_nl *nl, struct nl_msg *msg, int maxattr,
		  kb_nl_msg_cb cb, void *arg)
{
	struct request rq = {
		.nl = nl, .maxattr = maxattr, .cb = cb, .arg = arg, .done = 1,
	};
	struct sender snd;
	bool dump, threaded;
	struct nl_cb *nlcb;
	int err;

	if (request_begin(nl, msg))
		return -ENOMEM;
	nlcb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nlcb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	rq.cmd = genlmsg_hdr(nlmsg_hdr(msg))->cmd;
	nl_cb_set(nlcb, NL_CB_MSG_IN, NL_CB_CUSTOM, msg_in_cb, &rq);
	nl_cb_set(nlcb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, &rq);
	nl_cb_set(nlcb, NL_CB_ACK, NL_CB_CUSTOM, ack_cb, &rq);
	nl_cb_set(nlcb, NL_CB_FINISH, NL_CB_CUSTOM, finish_cb, &rq);
	nl_cb_err(nlcb, NL_CB_CUSTOM, error_cb, &rq);

	/* do-requests end on the ack, dumps on NLMSG_DONE */
	dump = nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP;
	if (!dump)
		nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_ACK;
	/* without a thread, notifications are still skipped, only later */
	threaded = !dump && nl->ntf_cb && !sender_start(&snd, nl->sk, msg);
	/* msg is kept until the answer: the extack may point into it */
	if (!threaded) {
		err = nl_send_auto(nl->sk, msg);
		if (err < 0) {
			rq.done = -EIO;
			goto out_free_cb;
		}
	}
	while (rq.done > 0) {
		if (threaded) {
			struct pollfd pfd[2] = {
				{ nl_socket_get_fd(nl->sk), POLLIN, 0 },
				{ snd.pipe[0], POLLIN, 0 },
			};

			if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
				rq.done = -errno;
				break;
			}
			if ((pfd[1].revents & POLLIN) &&
			    read(snd.pipe[0], &err, sizeof(err)) == sizeof(err) &&
			    err < 0) {
				rq.done = -EIO;
				snprintf(nl->extack, sizeof(nl->extack), "%s",
					 nl_geterror(err));
				break;
			}
			if (!(pfd[0].revents & (POLLIN | POLLERR | POLLHUP)))
				continue;
		}
		err = nl_recvmsgs(nl->sk, nlcb);
		if (err < 0 && rq.done > 0) {
			rq.done = -EIO;
			snprintf(nl->extack, sizeof(nl->extack), "%s",
				 nl_geterror(err));
		}
	}
	if (threaded)
		sender_join(&snd);

out_free_cb:
	nl_cb_put(nlcb);
	nl->error = rq.done;
	if (rq.done < 0 && nl->bad_attr_offset)
		note_bad_attr(nl, msg);
	nlmsg_free(msg);
	if (rq.done < 0 && !nl->quiet)
		kb_nl_print_error(nl);
	return rq.done;
}

