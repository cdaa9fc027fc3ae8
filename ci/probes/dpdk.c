/* Build probe (Makefile): DPDK's rte_rcu_qsbr links. */
#include <rte_rcu_qsbr.h>

int main(void)
{
	return rte_rcu_qsbr_get_memsize(1) > 0 ? 0 : 1;
}
