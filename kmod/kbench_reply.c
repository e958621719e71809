// SPDX-License-Identifier: GPL-2.0
/*
 * kbench: the requester of a RUN, from the doit to the answer.  The doit
 * returns at once and the run's thread answers later (as ethtool's cable
 * test and NCSI do): so the request is held (a copy, the sender's
 * socket), progress goes to the requester while the run goes on, and the
 * reply and the ack are sent from the thread, then the request is let go.
 * Everything here sends to the requester, with its socket pinned
 * (kbench_requester_pin()); of the rest of the module it calls only the
 * budget (the request copy is charged).
 */
#include <linux/file.h>
#include <linux/skbuff.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "kbench_compat.h"
#include "kbench_internal.h"

/*
 * One @cmd message to @portid, answering @seq, of at most @size bytes of
 * attributes that @fill fills from @arg: the allocation, header and
 * unwinding of every reply (INFO's, a RUN's from its thread), written
 * once.  An ERR_PTR() when out of memory or the attributes do not fit.
 */
struct sk_buff *kbench_msg(u32 portid, u32 seq, u8 cmd, size_t size,
			   int (*fill)(struct sk_buff *msg, const void *arg),
			   const void *arg)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return ERR_PTR(-ENOMEM);
	hdr = genlmsg_put(msg, portid, seq, &kbench_genl_family, 0, cmd);
	if (!hdr || fill(msg, arg)) {
		nlmsg_free(msg);
		return ERR_PTR(-EMSGSIZE);
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/*
 * The RUN reply's size: NLMSG_GOODSIZE holds the results without events;
 * each event adds a summary per series and its description (each well
 * under 256 bytes).
 */
static size_t kbench_run_reply_size(const struct kbench_run *run)
{
	return NLMSG_GOODSIZE + (size_t)run->nr_events *
	       (run->nr_series + 1) * 256;
}

/*
 * A concurrent RUN's reply (kbench_group_fill()): a cpu-run per CPU, each
 * with its results (each well under 512 bytes) and figures.
 */
static size_t kbench_group_reply_size(const struct kbench_group *g)
{
	return g->nr * ((size_t)g->run[0]->nr_series * 512 + 256) +
	       NLMSG_GOODSIZE;
}

/*
 * The reply @run's requester waits for: its own, or its group's
 * (progress leaves room for it in the requester's queue).
 */
static size_t kbench_answer_size(const struct kbench_run *run)
{
	return run->group ? kbench_group_reply_size(run->group) :
			    kbench_run_reply_size(run);
}

/* An attribute of the request @nlh at the same place in its copy @copy. */
const struct nlattr *kbench_nla_in(const struct sk_buff *copy,
				   const struct nlmsghdr *nlh,
				   const struct nlattr *nla)
{
	return nla ? (const void *)(copy->data +
				    ((const u8 *)nla - (const u8 *)nlh)) : NULL;
}

/*
 * Keep what the run's thread needs to answer the RUN request @skb when
 * the run ends (kbench_nl_run_complete()): a copy of the request, in which
 * the extack's bad attributes point, and a reference to the sender's
 * socket, which netlink_ack() reads.  A copy, not a reference: the
 * request's skb is pulled past the message when the doit returns (and a
 * large one has a vmalloc()ed head, which a clone cannot outlive).  A copy
 * of this message alone, charged to the memory budget: the skb holds the
 * rest of a batched sendmsg() too (K RUNs in one would keep O(K^2)
 * bytes).  The copy's sk is genetlink's kernel socket of init_net (the
 * family is not netns-aware), which netlink_ack() sends from and which is
 * never freed; the copy has no destructor, so it takes no reference.
 * The copy's charge names no run that is ending: the run's own, charged
 * first (kbench_mem_charge()), did.
 */
int kbench_run_hold_request(struct kbench_run *run, struct sk_buff *skb,
			    struct genl_info *info,
			    const struct nlattr **events)
{
	const struct nlmsghdr *nlh = info->nlhdr;
	struct sk_buff *copy;
	u64 in_use;
	u32 i;

	run->req_bytes = SKB_TRUESIZE(nlh->nlmsg_len);
	if (kbench_mem_try_charge(run->req_bytes, &in_use)) {
		run->req_bytes = 0;
		kbench_extack_fmt(info->extack, info->attrs[KBENCH_A_RUN_SAMPLES],
				  "store_bytes_max reached: %llu bytes in use, no room for the request",
				  in_use);
		return -E2BIG;
	}
	copy = alloc_skb(nlh->nlmsg_len, GFP_KERNEL);
	if (!copy) {
		kbench_mem_uncharge(run->req_bytes);
		run->req_bytes = 0;
		NL_SET_ERR_MSG(info->extack, "out of memory");
		return -ENOMEM;
	}
	skb_put_data(copy, nlh, nlh->nlmsg_len);
	NETLINK_CB(copy) = NETLINK_CB(skb);
	copy->sk = skb->sk;
	run->req_skb = copy;
	run->req_nlh = nlmsg_hdr(copy);
	run->portid = info->snd_portid;
	run->seq = info->snd_seq;
	run->requester = NETLINK_CB(skb).sk;
	sock_hold(run->requester);
	run->nla_cpu = kbench_nla_in(copy, nlh, info->attrs[KBENCH_A_RUN_CPU]);
	run->nla_iterations = kbench_nla_in(copy, nlh,
					    info->attrs[KBENCH_A_RUN_ITERATIONS]);
	for (i = 0; i < run->nr_events; i++)
		run->nla_events[i] = kbench_nla_in(copy, nlh, events[i]);
	return 0;
}

/*
 * Hold the requester's socket where the port @run answers to is its own
 * until kbench_requester_unpin(): a reference to the socket's file, taken
 * only while it has one.  Its port leaves the table only when the file is
 * released (netlink_release(): netlink_remove(), then sock_orphan() and
 * the URELEASE notifier), and another socket may bind it from then on:
 * a message sent by port number with the file held reaches the requester
 * and nobody else.  sock_orphan() clears sk_socket under
 * sk_callback_lock, after the last file reference is gone: read under
 * that lock, a socket and file are alive, and a count of 0 means the
 * release has begun.  NULL: the requester is gone (or is a kernel socket,
 * which has no file), send nothing.  Process context.
 */
static struct file *kbench_requester_pin(const struct kbench_run *run)
{
	struct sock *sk = run->requester;
	struct file *file = NULL;

	if (!sk || READ_ONCE(run->requester_gone))
		return NULL;
	read_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_socket && sk->sk_socket->file &&
	    kbench_file_get_live(sk->sk_socket->file))
		file = sk->sk_socket->file;
	read_unlock_bh(&sk->sk_callback_lock);
	return file;
}

/* The last reference may be this one: the release runs from a worker. */
static void kbench_requester_unpin(struct file *pin)
{
	fput(pin);
}

/*
 * The RUN reply to the requester of @run, as genlmsg_reply() would have
 * sent it: @size bytes that @fill fills from @arg.
 */
static int kbench_run_reply(struct kbench_run *run, size_t size,
			    int (*fill)(struct sk_buff *msg, const void *arg),
			    const void *arg)
{
	struct sk_buff *msg;

	msg = kbench_msg(run->portid, run->seq, KBENCH_CMD_RUN, size, fill,
			 arg);
	if (IS_ERR(msg))
		return PTR_ERR(msg);
	return genlmsg_unicast(sock_net(run->requester), msg, run->portid);
}

/*
 * Answer @run's request, if its requester is still there (pinned, so
 * that its port is its own while the answer goes): on success the reply
 * (at most kbench_answer_size() bytes, filled by @fill from @arg), then
 * the ack when asked for or @err; then let go of the request.
 */
void kbench_answer(struct kbench_run *run, int err,
		   struct netlink_ext_ack *extack,
		   int (*fill)(struct sk_buff *msg, const void *arg),
		   const void *arg)
{
	struct file *pin = kbench_requester_pin(run);

	if (pin) {
		kbench_fault_delay(KBENCH_FAULT_ANSWER, NULL);
		if (!err) {
			err = kbench_run_reply(run, kbench_answer_size(run),
					       fill, arg);
			if (err)
				NL_SET_ERR_MSG(extack,
					       "cannot send the RUN reply: fetch the run with samples-get");
		}
		if (err || (run->req_nlh->nlmsg_flags & NLM_F_ACK))
			netlink_ack(run->req_skb, run->req_nlh, err, extack);
		kbench_requester_unpin(pin);
	}
	kbench_run_drop_request(run);
}

/*
 * Progress of a run goes to its requester alone (unicast to the port that
 * sent the RUN), never to a multicast group: on 6.1 anyone may join a group
 * (GENL_MCAST_CAP_* appeared in 6.7, and for CAP_NET_ADMIN/CAP_SYS_ADMIN
 * only), so a group would show unprivileged listeners the run ids and ports
 * of privileged runs.  The "progress" group stays registered because the
 * ABI only grows, but nothing is sent to it.
 *
 * A requester may not read during the run (an old client read nothing until
 * the end, when RUN held it in sendmsg()), so notifications queue up.  The
 * RUN reply and its ack come after them, and netlink drops a message for a
 * socket whose receive queue is full (and flags the socket ENOBUFS): so a
 * notification is sized exactly and only sent while it leaves room in
 * the requester's queue for the reply and the ack: KBENCH_PROGRESS_ROOM,
 * or more for a reply that needs more (kbench_answer_size(): a group's
 * grows with its CPUs, about 100 KB for 32).  Best effort: progress can
 * be skipped, the reply cannot.
 */
#define KBENCH_PROGRESS_ROOM	(32 * 1024)

static int kbench_progress_room(const struct kbench_run *run)
{
	size_t len = nlmsg_total_size(genlmsg_total_size(kbench_answer_size(run)));
	/* what the receive queue is charged: a kmalloc()ed head, ack beside */
	size_t reply = roundup_pow_of_two(SKB_DATA_ALIGN(len) +
			SKB_DATA_ALIGN(sizeof(struct skb_shared_info))) +
		       SKB_DATA_ALIGN(sizeof(struct sk_buff));

	return max_t(size_t, kbench_fault_room(KBENCH_PROGRESS_ROOM),
		     reply + SKB_TRUESIZE(NLMSG_GOODSIZE));
}

void kbench_progress_notify(struct kbench_run *run, u32 done, u32 total,
			    u64 elapsed_ns)
{
	struct sock *sk = run->requester;
	struct sk_buff *msg;
	struct file *pin;
	void *hdr;
	int room;

	/* the port may be another socket's once the requester's is released */
	pin = kbench_requester_pin(run);
	if (!pin)
		return;
	msg = genlmsg_new(4 * nla_total_size(sizeof(u32)) +
			  nla_total_size_64bit(sizeof(u64)), GFP_KERNEL);
	if (!msg)
		goto out_unpin;
	room = READ_ONCE(sk->sk_rcvbuf) - atomic_read(&sk->sk_rmem_alloc);
	if (room < (int)msg->truesize + kbench_progress_room(run))
		goto out_free;
	hdr = genlmsg_put(msg, 0, 0, &kbench_genl_family, 0,
			  KBENCH_CMD_PROGRESS_NTF);
	if (!hdr)
		goto out_free;
	if (nla_put_u32(msg, KBENCH_A_PROGRESS_RUN_ID, run->id) ||
	    nla_put_u32(msg, KBENCH_A_PROGRESS_PORTID, run->portid) ||
	    nla_put_u32(msg, KBENCH_A_PROGRESS_DONE, done) ||
	    nla_put_u32(msg, KBENCH_A_PROGRESS_TOTAL, total) ||
	    nla_put_u64_64bit(msg, KBENCH_A_PROGRESS_ELAPSED_NS, elapsed_ns,
			      KBENCH_A_PROGRESS_PAD))
		goto out_free;
	genlmsg_end(msg, hdr);
	/* fails only if the requester's queue filled meanwhile */
	genlmsg_unicast(sock_net(sk), msg, run->portid);
	goto out_unpin;

out_free:
	nlmsg_free(msg);
out_unpin:
	kbench_requester_unpin(pin);
}
