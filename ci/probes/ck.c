/* Build probe (Makefile): Concurrency Kit's ck_epoch links. */
#include <ck_epoch.h>

int main(void)
{
	static ck_epoch_t e;

	ck_epoch_init(&e);
	return 0;
}
