int main (void)
{
#pragma perfpred param = 3
  return 0;
}
