/* What a fake /proc points at. If a test ever sees its status, the library
 * executed a file other than the one it was given. */
int main(void)
{
	return 66;
}
