# Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8) Fig. 4(a): FLOPs per step, one layer (d = 200, m = 8); FLOPs in convention all: every executed operation
# Written by cosda report configs/nystrom_fig4.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac, beside executed FLOPs in it dotted.
# Fixed: layers = 1.
if (!exists("png")) png = 'fig4a_flops_1layer.png'
if (!exists("pdf")) pdf = 'fig4a_flops_1layer.pdf'
$c_att << EOD
8 28872
16 109072
32 423456
64 1668160
128 6621312
256 26382592
512 105325056
1024 420889600
2048 1682737152
4096 6729306112
8192 2.691393946e+10
EOD
$e_att << EOD
8 52864
16 208256
32 826624
64 3293696
128 13149184
256 52545536
512 210079744
1024 840114176
2048 3360047104
4096 1.343936922e+10
8192 5.375583846e+10
EOD
$p_att << EOD
8 27272
16 105872
32 417056
64 1655360
128 6595712
256 26331392
512 105222656
1024 420684800
2048 1682327552
4096 6728486912
8192 2.691230106e+10
EOD
$c_ny << EOD
8 84000
16 137512
32 244536
64 458584
128 886680
256 1742872
512 3455256
1024 6880024
2048 13729560
4096 27428632
8192 54826776
EOD
$e_ny << EOD
8 157184
16 263936
32 477440
64 904448
128 1758464
256 3466496
512 6882560
1024 13714688
2048 27378944
4096 54707456
8192 109364480
EOD
$p_ny << EOD
8 81560
16 136608
32 246704
64 466896
128 907280
256 1788048
512 3549584
1024 7072656
2048 14118800
4096 28211088
8192 56395664
EOD
$c_ny_fix << EOD
8 53520
16 105432
32 209256
64 416904
128 832200
256 1662792
512 3323976
1024 6646344
2048 13291080
4096 26580552
8192 53159496
EOD
$e_ny_fix << EOD
8 101952
16 203904
32 407808
64 815616
128 1631232
256 3262464
512 6524928
1024 13049856
2048 26099712
4096 52199424
8192 104398848
EOD
$p_ny_fix << EOD
8 51856
16 103704
32 207400
64 414792
128 829576
256 1659144
512 3318280
1024 6636552
2048 13273096
4096 26546184
8192 53092360
EOD
$c_co_si << EOD
8 3609
16 6817
32 13233
64 26065
128 51729
256 103057
512 205713
1024 411025
2048 821649
4096 1642897
8192 3285393
EOD
$e_co_si << EOD
8 6608
16 13016
32 25832
64 51464
128 102728
256 205256
512 410312
1024 820424
2048 1640648
4096 3281096
8192 6561992
EOD
$p_co_si << EOD
8 4816
16 9632
32 19264
64 38528
128 77056
256 154112
512 308224
1024 616448
2048 1232896
4096 2465792
8192 4931584
EOD
$c_co_re << EOD
8 10630
16 21862
32 44326
64 89254
128 179110
256 358822
512 718246
1024 1437094
2048 2874790
4096 5750182
8192 11500966
EOD
$e_co_re << EOD
8 19229
16 40061
32 81725
64 165053
128 331709
256 665021
512 1331645
1024 2664893
2048 5331389
4096 10664381
8192 21330365
EOD
$p_co_re << EOD
8 10830
16 22062
32 44526
64 89454
128 179310
256 359022
512 718446
1024 1437294
2048 2874990
4096 5750382
8192 11501166
EOD
$c_cony_si_cont << EOD
8 28550
16 20835.5
32 16978.25
64 15049.625
128 14085.3125
256 13603.15625
512 13362.07812
1024 13241.53906
2048 13181.26953
4096 13151.13477
8192 13136.06738
EOD
$e_cony_si_cont << EOD
8 55370
16 40773
32 33474.5
64 29825.25
128 28000.625
256 27088.3125
512 26632.15625
1024 26404.07812
2048 26290.03906
4096 26233.01953
8192 26204.50977
EOD
$p_cony_si_cont << EOD
8 46208
16 37564
32 33242
64 31081
128 30000.5
256 29460.25
512 29190.125
1024 29055.0625
2048 28987.53125
4096 28953.76562
8192 28936.88281
EOD
$c_cony_re_cont << EOD
8 43260
16 48482.5
32 70293.75
64 119599.375
128 221052.1875
256 425378.5938
512 834741.7969
1024 1653823.398
2048 3292164.199
4096 6568934.6
8192 13122519.8
EOD
$e_cony_re_cont << EOD
8 81479
16 91247.5
32 132131.75
64 224573.875
128 414794.9375
256 797905.4688
512 1565460.734
1024 3101238.367
2048 6173127.184
4096 12317071.59
8192 24605043.8
EOD
$p_cony_re_cont << EOD
8 64536
16 63056
32 81516
64 129146
128 229761
256 433668.5
512 842822.25
1024 1661799.125
2048 3300087.562
4096 6576831.781
8192 13130403.89
EOD
$c_cony_si_fix << EOD
8 8105
16 8105
32 8105
64 8105
128 8105
256 8105
512 8105
1024 8105
2048 8105
4096 8105
8192 8105
EOD
$e_cony_si_fix << EOD
8 15968
16 15968
32 15968
64 15968
128 15968
256 15968
512 15968
1024 15968
2048 15968
4096 15968
8192 15968
EOD
$p_cony_si_fix << EOD
8 11312
16 11312
32 11312
64 11312
128 11312
256 11312
512 11312
1024 11312
2048 11312
4096 11312
8192 11312
EOD
$c_cony_re_fix << EOD
8 20897
16 33697
32 59297
64 110497
128 212897
256 417697
512 827297
1024 1646497
2048 3284897
4096 6561697
8192 13115297
EOD
$e_cony_re_fix << EOD
8 38560
16 62560
32 110560
64 206560
128 398560
256 782560
512 1550560
1024 3086560
2048 6158560
4096 12302560
8192 24590560
EOD
$p_cony_re_fix << EOD
8 22512
16 35312
32 60912
64 112112
128 214512
256 419312
512 828912
1024 1648112
2048 3286512
4096 6563312
8192 13116912
EOD
set title 'Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8)' . "\n" . 'Fig. 4(a): FLOPs per step, one layer (d = 200, m = 8); FLOPs in convention all: every executed operation' noenhanced
set xlabel 'n (tokens in the window)'
set ylabel 'FLOPs per step (all)'
set logscale xy
set format y '10^{%L}'
set xtics ('8' 8, '16' 16, '32' 32, '64' 64, '128' 128, '256' 256, '512' 512, '1024' 1024, '2048' 2048, '4096' 4096, '8192' 8192)
set mxtics default
set grid xtics ytics mytics lc rgb '#dddddd'
set key outside right top noenhanced spacing 1.2
set autoscale fix
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set border lw 1.2
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1100,680 font 'DejaVu Sans,12'
} else {
  set terminal png size 1100,680
}
set output png
plot \
  $p_att with lines lw 4 lc rgb '#70000000' dt (9,6) notitle, \
  $p_ny with lines lw 4 lc rgb '#70e69f00' dt (9,6) notitle, \
  $p_ny_fix with lines lw 4 lc rgb '#7056b4e9' dt (9,6) notitle, \
  $p_co_si with lines lw 4 lc rgb '#70009e73' dt (9,6) notitle, \
  $p_co_re with lines lw 4 lc rgb '#700072b2' dt (9,6) notitle, \
  $p_cony_si_cont with lines lw 4 lc rgb '#70d55e00' dt (9,6) notitle, \
  $p_cony_re_cont with lines lw 4 lc rgb '#70cc79a7' dt (9,6) notitle, \
  $p_cony_si_fix with lines lw 4 lc rgb '#70999933' dt (9,6) notitle, \
  $p_cony_re_fix with lines lw 4 lc rgb '#70882255' dt (9,6) notitle, \
  $c_att with lines lw 1 lc rgb '#000000' dt 3 notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $c_ny with lines lw 1 lc rgb '#e69f00' dt 3 notitle, \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $c_ny_fix with lines lw 1 lc rgb '#56b4e9' dt 3 notitle, \
  $e_ny_fix with linespoints lw 2 lc rgb '#56b4e9' pt 9 ps 1.1 dt 1 title 'ny_fix', \
  $c_co_si with lines lw 1 lc rgb '#009e73' dt 3 notitle, \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  $c_co_re with lines lw 1 lc rgb '#0072b2' dt 3 notitle, \
  $e_co_re with linespoints lw 2 lc rgb '#0072b2' pt 13 ps 1.1 dt 1 title 'co_re', \
  $c_cony_si_cont with lines lw 1 lc rgb '#d55e00' dt 3 notitle, \
  $e_cony_si_cont with linespoints lw 2 lc rgb '#d55e00' pt 4 ps 1.1 dt 1 title 'cony_si_cont', \
  $c_cony_re_cont with lines lw 1 lc rgb '#cc79a7' dt 3 notitle, \
  $e_cony_re_cont with linespoints lw 2 lc rgb '#cc79a7' pt 6 ps 1.1 dt 1 title 'cony_re_cont', \
  $c_cony_si_fix with lines lw 1 lc rgb '#999933' dt 3 notitle, \
  $e_cony_si_fix with linespoints lw 2 lc rgb '#999933' pt 8 ps 1.1 dt 1 title 'cony_si_fix', \
  $c_cony_re_fix with lines lw 1 lc rgb '#882255' dt 3 notitle, \
  $e_cony_re_fix with linespoints lw 2 lc rgb '#882255' pt 12 ps 1.1 dt 1 title 'cony_re_fix', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (mac)', \
  NaN with lines lw 1 lc rgb 'black' dt 3 title 'executed (mac)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
