// Build probe (Makefile): libcds's URCU headers compile and libcds links.
#include <cds/init.h>
#include <cds/urcu/general_instant.h>

int main()
{
	cds::Initialize();
	cds::Terminate();
	return 0;
}
