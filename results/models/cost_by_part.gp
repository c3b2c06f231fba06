set terminal pngcairo size 1400,1000 font 'Sans,11' noenhanced
set output 'cost_by_part.png'
set multiplot layout 2,2 title 'Executed operations per step by part against the window n (GTZAN dimensions: d 192, 16 heads, MLP 192)'
set logscale xy
set grid
set key left top font ',9'
set xrange [5.333333333333333:768]
set xlabel 'window n'
set ylabel 'operations per step (all)'
$gtzan_trans_b1 << EOD
8 393216 1323840 6464 147456 1536 4041 3840 1920 1882313
16 786432 2500416 12736 147456 1536 4041 3840 3456 3459913
32 1572864 4853568 25280 147456 1536 4041 3840 6528 6615113
64 3145728 9559872 50368 147456 1536 4041 3840 12672 12925513
128 6291456 18972480 100544 147456 1536 4041 3840 24960 25546313
256 12582912 37797696 200896 147456 1536 4041 3840 49536 50787913
512 25165824 75448128 401600 147456 1536 4041 3840 98688 101271113
EOD
set title 'Trans-b1: one regular block re-run over the window (GTZAN)'
plot $gtzan_trans_b1 using 1:2 with linespoints title 'embedding', $gtzan_trans_b1 using 1:3 with linespoints title 'projections', $gtzan_trans_b1 using 1:4 with linespoints title 'attention', $gtzan_trans_b1 using 1:5 with linespoints title 'feed_forward', $gtzan_trans_b1 using 1:6 with linespoints title 'activation', $gtzan_trans_b1 using 1:7 with linespoints title 'normalisation', $gtzan_trans_b1 using 1:8 with linespoints title 'head', $gtzan_trans_b1 using 1:9 with linespoints title 'other', $gtzan_trans_b1 using 1:10 with lines lw 3 dt 2 title 'total'
$gtzan_cotrans_b1 << EOD
8 49152 294336 6464 147456 1536 4041 3840 576 507401
16 49152 294336 12736 147456 1536 4041 3840 576 513673
32 49152 294336 25280 147456 1536 4041 3840 576 526217
64 49152 294336 50368 147456 1536 4041 3840 576 551305
128 49152 294336 100544 147456 1536 4041 3840 576 601481
256 49152 294336 200896 147456 1536 4041 3840 576 701833
512 49152 294336 401600 147456 1536 4041 3840 576 902537
EOD
set title 'CoTrans-b1: one Continual Single-Output block (GTZAN)'
plot $gtzan_cotrans_b1 using 1:2 with linespoints title 'embedding', $gtzan_cotrans_b1 using 1:3 with linespoints title 'projections', $gtzan_cotrans_b1 using 1:4 with linespoints title 'attention', $gtzan_cotrans_b1 using 1:5 with linespoints title 'feed_forward', $gtzan_cotrans_b1 using 1:6 with linespoints title 'activation', $gtzan_cotrans_b1 using 1:7 with linespoints title 'normalisation', $gtzan_cotrans_b1 using 1:8 with linespoints title 'head', $gtzan_cotrans_b1 using 1:9 with linespoints title 'other', $gtzan_cotrans_b1 using 1:10 with lines lw 3 dt 2 title 'total'
$gtzan_trans_b2 << EOD
8 393216 3678528 58176 1327104 13824 25593 3840 4992 5505273
16 786432 7209792 216512 2506752 26112 47145 3840 9600 10806185
32 1572864 14272320 834240 4866048 50688 90249 3840 18816 21709065
64 3145728 28397376 3273920 9584640 99840 176457 3840 37248 44719049
128 6291456 56647488 12970176 19021824 198144 348873 3840 74112 95555913
256 12582912 113147712 51630272 37896192 394752 693705 3840 147840 216497225
512 25165824 226148160 206020800 75644928 787968 1383369 3840 295296 535450185
EOD
set title 'Trans-b2: two regular blocks re-run over the window (GTZAN)'
plot $gtzan_trans_b2 using 1:2 with linespoints title 'embedding', $gtzan_trans_b2 using 1:3 with linespoints title 'projections', $gtzan_trans_b2 using 1:4 with linespoints title 'attention', $gtzan_trans_b2 using 1:5 with linespoints title 'feed_forward', $gtzan_trans_b2 using 1:6 with linespoints title 'activation', $gtzan_trans_b2 using 1:7 with linespoints title 'normalisation', $gtzan_trans_b2 using 1:8 with linespoints title 'head', $gtzan_trans_b2 using 1:9 with linespoints title 'other', $gtzan_trans_b2 using 1:10 with lines lw 3 dt 2 title 'total'
$gtzan_cotrans_b2 << EOD
8 49152 2134272 25360 1327104 13824 25593 3840 3648 3582793
16 49152 3900672 52112 2506752 26112 47145 3840 6720 6592505
32 49152 7433472 105616 4866048 50688 90249 3840 12864 12611929
64 49152 14499072 212624 9584640 99840 176457 3840 25152 24650777
128 49152 28630272 426640 19021824 198144 348873 3840 49728 48728473
256 49152 56892672 854672 37896192 394752 693705 3840 98880 96883865
512 49152 113417472 1710736 75644928 787968 1383369 3840 197184 193194649
EOD
set title 'CoTrans-b2: Continual Retroactive block, then a single-output block (GTZAN)'
plot $gtzan_cotrans_b2 using 1:2 with linespoints title 'embedding', $gtzan_cotrans_b2 using 1:3 with linespoints title 'projections', $gtzan_cotrans_b2 using 1:4 with linespoints title 'attention', $gtzan_cotrans_b2 using 1:5 with linespoints title 'feed_forward', $gtzan_cotrans_b2 using 1:6 with linespoints title 'activation', $gtzan_cotrans_b2 using 1:7 with linespoints title 'normalisation', $gtzan_cotrans_b2 using 1:8 with linespoints title 'head', $gtzan_cotrans_b2 using 1:9 with linespoints title 'other', $gtzan_cotrans_b2 using 1:10 with lines lw 3 dt 2 title 'total'
unset multiplot
