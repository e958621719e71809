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
 *
 * The room of the answers is kept per requester's socket, not per run.
 * A requester may send several RUNs on one socket and read nothing until
 * the last is answered (a batch, or a client that reads at the end):
 * their answers then wait in its receive queue together, and netlink
 * drops a message for a socket whose queue is over its rcvbuf, flags it
 * ENOBUFS and drops every later one until the reader has emptied the
 * queue.  So each run with a requester is listed in kbench_owed from the
 * time its request is held until its answer has gone, with the room the
 * answer takes in the queue (kbench_answer_room()); progress to a socket
 * leaves free the room of every answer owed to it; and an answer is sent
 * only when it fits, one at a time per socket: until then its run's
 * thread waits for the reader, its CPU already free for the next run.
 */
#include <linux/file.h>
#include <linux/freezer.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "kbench_compat.h"
#include "kbench_internal.h"

/*
 * One @cmd message to @portid, answering @seq, of at most @size bytes of
 * attributes that @fill fills from @arg: the allocation, header and
 * unwinding of a reply (INFO's).  An ERR_PTR() when out of memory or the
 * attributes do not fit.
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
 * What a receive queue is charged for a message of @len bytes: its head,
 * kmalloc()ed or from the page allocator, rounded up to a power of two
 * at most, and the sk_buff.
 */
static size_t kbench_skb_room(size_t len)
{
	return roundup_pow_of_two(SKB_DATA_ALIGN(len) +
				  SKB_DATA_ALIGN(sizeof(struct skb_shared_info))) +
	       SKB_DATA_ALIGN(sizeof(struct sk_buff));
}

/*
 * The ack of @run's request (netlink_ack()): the error, the request
 * itself unless the requester set NETLINK_CAP_ACK, the extack (a message
 * of at most KBENCH_EXTACK_MSG_LEN, the bad attribute's offset).
 */
static size_t kbench_ack_room(const struct kbench_run *run)
{
	return kbench_skb_room(nlmsg_total_size(sizeof(struct nlmsgerr) +
						run->req_nlh->nlmsg_len +
						NLMSG_GOODSIZE / 4));
}

/* A message of @size bytes of attributes, its headers included. */
static size_t kbench_msg_len(size_t size)
{
	return nlmsg_total_size(genlmsg_total_size(size));
}

/*
 * The room @run's answer takes in its requester's queue: its messages
 * (one, or a group's one per CPU and one more) and the ack.
 */
static u32 kbench_answer_room(const struct kbench_run *run)
{
	const struct kbench_answer_ops *a = run->answer;
	size_t room = kbench_ack_room(run);
	u32 i, n = a->parts(run->answer_arg);

	for (i = 0; i < n; i++)
		room += kbench_skb_room(kbench_msg_len(a->size(run->answer_arg,
							       i)));
	return room;
}

/* The room owed to @sk: the answers of all its runs.  Under the lock. */
static u64 kbench_owed_to(const struct sock *sk)
{
	const struct kbench_run *r;
	u64 owed = 0;

	lockdep_assert_held(&kbench_owed_lock);
	list_for_each_entry(r, &kbench_owed, owed_node)
		if (r->requester == sk)
			owed += r->owed;
	return owed;
}

static void kbench_owed_add(struct kbench_run *run)
{
	run->owed = kbench_answer_room(run);
	spin_lock(&kbench_owed_lock);
	list_add_tail(&run->owed_node, &kbench_owed);
	spin_unlock(&kbench_owed_lock);
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
			    const struct nlattr **events,
			    const struct kbench_answer_ops *answer,
			    const void *arg)
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
	run->answer = answer;
	run->answer_arg = arg;
	run->notify = nla_get_flag(info->attrs[KBENCH_A_RUN_NOTIFY]);
	kbench_owed_add(run);
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
 * Whether @size more bytes may go to @sk for @run now: no other answer
 * is being sent to it, and its queue has room for them or is empty
 * (netlink queues a message for a queue not over its rcvbuf, whatever
 * the message's size).  Under kbench_owed_lock.
 */
static bool kbench_answer_fits(const struct kbench_run *run,
			       struct sock *sk, size_t size)
{
	const struct kbench_run *r;
	int rmem;

	lockdep_assert_held(&kbench_owed_lock);
	list_for_each_entry(r, &kbench_owed, owed_node)
		if (r != run && r->requester == sk && r->sending)
			return false;
	rmem = atomic_read(&sk->sk_rmem_alloc);
	return !rmem || (s64)rmem + size <= READ_ONCE(sk->sk_rcvbuf);
}

/*
 * What the requester's queue will be charged for @msg: netlink_unicast()
 * trims a head that is at least half empty to the message's length
 * (netlink_trim()), so then at most kbench_skb_room() of its length;
 * a head less empty than that is queued as it is, at its truesize (a
 * message sized by its bound, as the answer's are, often is).
 */
static size_t kbench_msg_room(const struct sk_buff *msg)
{
	if ((size_t)skb_tailroom(msg) * 2 < msg->truesize)
		return msg->truesize;
	return min_t(size_t, msg->truesize, kbench_skb_room(msg->len));
}

/* Between two looks at a requester's queue that had no room. */
#define KBENCH_ANSWER_POLL_MS	10

/*
 * Pin @run's requester (kbench_requester_pin()) once @size more bytes
 * fit its receive queue (kbench_answer_fits()): @run's answer is then
 * the one being sent to it until kbench_owed_drop().  Until then the
 * run's thread looks again every KBENCH_ANSWER_POLL_MS with nothing held
 * (frozen meanwhile if the system suspends): the requester may read,
 * close its socket (its release ends the wait: NULL) or never read.
 * max_run_ms of waiting, or module exit, end the wait too: the answer is
 * then sent as it was before the room was kept per socket, and what does
 * not fit is dropped (the run stays stored, its id in the store).
 */
static struct file *kbench_answer_wait(struct kbench_run *run, size_t size)
{
	unsigned long until = jiffies + msecs_to_jiffies(kbench_max_run_ms);
	struct sock *sk = run->requester;
	struct file *pin;
	bool go;

	for (;;) {
		pin = kbench_requester_pin(run);
		if (!pin)
			return NULL;
		spin_lock(&kbench_owed_lock);
		go = kbench_answer_fits(run, sk, size) || kbench_exiting() ||
		     time_after(jiffies, until);
		if (go)
			run->sending = true;
		spin_unlock(&kbench_owed_lock);
		if (go)
			return pin;
		kbench_requester_unpin(pin);
		if (!try_to_freeze())
			schedule_timeout_interruptible(msecs_to_jiffies(KBENCH_ANSWER_POLL_MS));
	}
}

/*
 * Message @i of @run's answer, or NULL when it cannot be built: out of
 * memory (or the test bed's fault_nomem), or a bug in its size bound.
 * Each message is allocated only when the one before has gone: a
 * group's answer never holds more than one message at a time.
 */
static struct sk_buff *kbench_answer_msg(const struct kbench_run *run, u32 i)
{
	const struct kbench_answer_ops *a = run->answer;
	const void *arg = run->answer_arg;
	size_t size = a->size(arg, i);
	struct sk_buff *msg;
	void *hdr;

	if (WARN_ON_ONCE(kbench_msg_len(size) > KBENCH_MSG_MAX) ||
	    kbench_fault_nomem(i))
		return NULL;
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		return NULL;
	/*
	 * Replies: the request's sequence number, several NLM_F_MULTI that
	 * the ack ends (never NLMSG_DONE).  Notifications: sequence number
	 * 0, each on its own, RUN_END_NTF ends them.
	 */
	if (run->notify)
		hdr = genlmsg_put(msg, 0, 0, &kbench_genl_family, 0,
				  KBENCH_CMD_RUN_NTF);
	else
		hdr = genlmsg_put(msg, run->portid, run->seq,
				  &kbench_genl_family,
				  a->parts(arg) > 1 ? NLM_F_MULTI : 0,
				  KBENCH_CMD_RUN);
	if (!hdr || WARN_ON_ONCE(a->fill(msg, arg, i))) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/*
 * A message of the answer could not be sent (@err: -ENOMEM, or
 * netlink_unicast()'s): the results are stored (a successful run is
 * stored before it answers), so the ack says @err and where they are:
 * its extack cookie is the run id (the group's first CPU's, which
 * run-get takes for the whole group), its message says it in words.
 * Formatted into the run: on 6.1 the extack only points at it.
 */
static int kbench_answer_lost(struct kbench_run *run, int err,
			      struct netlink_ext_ack *extack)
{
	scnprintf(run->explain, sizeof(run->explain),
		  "%s: run-get id %u gives the answer",
		  err == -ENOMEM ? "out of memory for the answer" :
		  "the answer could not be sent", run->id);
#ifdef KBENCH_HAVE_EXTACK_FMT
	NL_SET_ERR_MSG_FMT(extack, "%s", run->explain);
#else
	extack->_msg = run->explain;
#endif
	nl_set_extack_cookie_u64(extack, run->id);
	return err;
}

/*
 * The end of a RUN that asked for notify, what its ack would have said:
 * the run id, @err, the extack's message and the offset in the request
 * of the attribute it names.  NULL when out of memory.
 */
static struct sk_buff *kbench_end_msg(const struct kbench_run *run, int err,
				      const struct netlink_ext_ack *extack)
{
	const char *why = extack->_msg ?: "";
	const u8 *bad = (const u8 *)extack->bad_attr;
	const u8 *req = (const u8 *)run->req_nlh;
	struct sk_buff *msg;
	void *hdr;
	u32 offs;

	offs = bad && bad >= req && bad < req + run->req_nlh->nlmsg_len ?
	       bad - req : 0;
	msg = genlmsg_new(3 * nla_total_size(sizeof(u32)) +
			  nla_total_size(strlen(why) + 1), GFP_KERNEL);
	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, 0, 0, &kbench_genl_family, 0,
			  KBENCH_CMD_RUN_END_NTF);
	if (!hdr || nla_put_u32(msg, KBENCH_A_RUN_ID, run->id) ||
	    nla_put_s32(msg, KBENCH_A_RUN_ERROR, err) ||
	    nla_put_string(msg, KBENCH_A_RUN_ERROR_MSG, why) ||
	    nla_put_u32(msg, KBENCH_A_RUN_ERROR_OFFS, offs)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/*
 * The last word of @run's answer, after its @n messages, once it fits
 * the requester's queue: the ack of its request (on error, or when
 * asked for), or for notify its RUN_END_NTF, always.
 */
static void kbench_answer_end(struct kbench_run *run, int err,
			      struct netlink_ext_ack *extack, u32 n)
{
	struct sk_buff *msg = NULL;
	struct file *pin;

	if (run->notify) {
		msg = kbench_end_msg(run, err, extack);
		if (!msg)
			return;
	} else if (!err && !(run->req_nlh->nlmsg_flags & NLM_F_ACK)) {
		return;
	}
	pin = kbench_answer_wait(run, kbench_ack_room(run));
	if (!pin) {
		nlmsg_free(msg);
		return;
	}
	if (!n)
		kbench_fault_delay(KBENCH_FAULT_ANSWER, NULL);
	if (msg)
		genlmsg_unicast(sock_net(run->requester), msg, run->portid);
	else
		netlink_ack(run->req_skb, run->req_nlh, err, extack);
	kbench_requester_unpin(pin);
}

/*
 * Answer @run's request, if its requester is still there (pinned, so
 * that its port is its own while the answer goes): on success the
 * answer's messages (run->answer: one, or a group's one per CPU and
 * the group's figures), each with the request's sequence number, each
 * built when the one before has gone and sent once it fits the
 * requester's queue (kbench_answer_wait()); then the ack when asked for
 * or on error; then let go of the request.  A message that cannot be
 * built or sent is skipped, the others still go, and the ack tells the
 * requester to fetch the answer by id (kbench_answer_lost()).
 */
void kbench_answer(struct kbench_run *run, int err,
		   struct netlink_ext_ack *extack)
{
	u32 i, n = err ? 0 : run->answer->parts(run->answer_arg);
	struct sk_buff *msg;
	struct file *pin;
	int lost = 0, ret;

	for (i = 0; i < n; i++) {
		msg = kbench_answer_msg(run, i);
		if (!msg) {
			lost = lost ?: -ENOMEM;
			continue;
		}
		pin = kbench_answer_wait(run, kbench_msg_room(msg));
		if (!pin) {
			nlmsg_free(msg);
			goto out_drop;
		}
		if (i == 0)
			kbench_fault_delay(KBENCH_FAULT_ANSWER, NULL);
		ret = genlmsg_unicast(sock_net(run->requester), msg,
				      run->portid);
		if (ret)
			lost = lost ?: ret;
		/* in the queue now: room for the next message after it */
		kbench_requester_unpin(pin);
	}
	if (lost)
		err = kbench_answer_lost(run, lost, extack);
	kbench_answer_end(run, err, extack, n);
out_drop:
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
 * RUN replies and acks come after them, and netlink drops a message for a
 * socket whose receive queue is full (and flags the socket ENOBUFS): so a
 * notification is sized exactly and only sent while it leaves room in
 * the requester's queue for the answers of all its runs (kbench_owed_to():
 * a group's is a message per CPU and one more, about 140 KB for 32), and
 * at least KBENCH_PROGRESS_ROOM.  Best effort: progress can be skipped, the
 * answers cannot.
 */
#define KBENCH_PROGRESS_ROOM	(32 * 1024)

void kbench_progress_notify(struct kbench_run *run, u32 done, u32 total,
			    u64 elapsed_ns)
{
	struct sock *sk = run->requester;
	struct sk_buff *msg;
	struct file *pin;
	u64 owed;
	void *hdr;
	s64 room;

	/* the port may be another socket's once the requester's is released */
	pin = kbench_requester_pin(run);
	if (!pin)
		return;
	msg = genlmsg_new(4 * nla_total_size(sizeof(u32)) +
			  nla_total_size_64bit(sizeof(u64)), GFP_KERNEL);
	if (!msg)
		goto out_unpin;
	spin_lock(&kbench_owed_lock);
	owed = kbench_owed_to(sk);
	spin_unlock(&kbench_owed_lock);
	room = (s64)READ_ONCE(sk->sk_rcvbuf) - atomic_read(&sk->sk_rmem_alloc);
	if (room < (s64)(msg->truesize +
			 max_t(u64, kbench_fault_room(KBENCH_PROGRESS_ROOM), owed)))
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
